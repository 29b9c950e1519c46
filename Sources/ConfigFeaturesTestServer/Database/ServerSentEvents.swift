import ConfigFeatures
import Foundation

/// The Realtime Database's server-sent events, as the REST streaming API writes them.
enum ServerSentEvents {
    /// `event: <name>\ndata: <data>\n\n`.
    static func event(_ name: String, data: String) -> Data {
        Data("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    /// A `put` or `patch` event: `{"path":…,"data":…}` (in Firebase's member order).
    static func change(_ name: String, path: String, data: JSONValue) -> Data {
        event(name, data: #"{"path":"# + JSONValue.string(path).serialized() + #","data":"# + data.serialized() + "}")
    }

    /// `keep-alive` (data `null`).
    static let keepAlive = event("keep-alive", data: "null")

    /// `cancel` (data `null`): the rules no longer allow reading the location.
    static let cancel = event("cancel", data: "null")

    /// `auth_revoked`: the credential is no longer valid (the reason as bare text, as Firebase
    /// sends it and the Admin SDK's listener compares it).
    static let authRevoked = event("auth_revoked", data: "credential is no longer valid")

    /// A complete `put` event whose data is not JSON (for the `malformedJSON` fault).
    static let malformedPut = event("put", data: #"{"path":"/","data":}"#)

    /// The first half of a `put` event (for `dropStreams(midMessage: true)`).
    static let partialPut = Data("event: put\ndata: {\"path\":\"/\",\"da".utf8)
}
