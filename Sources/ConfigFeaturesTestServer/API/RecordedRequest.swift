import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// A request the server received (complete and well-formed), as recorded in `requests`.
    public struct RecordedRequest: Sendable, Hashable {
        /// The method (`GET`, `POST`, …).
        public var method: String
        /// The percent-decoded path, without the `/__redirected` prefix.
        public var path: String
        /// The percent-decoded query parameters (the last value of a repeated name wins).
        public var query: [String: String]
        /// The header fields, keyed by lowercased name (repeated fields joined with `", "`).
        public var headers: [String: String]
        /// The body, de-chunked.
        public var body: Data
        /// The endpoint family, `nil` for an unknown path.
        public var route: Route?
        /// Whether the request came to the `/__redirected` prefix (after a `redirect307` fault).
        public var wasRedirected: Bool
        /// For a database request: who the server verified it as (the admin credential, or the
        /// user of a valid ID token); `nil` for no credential, another token, or another route.
        public var auth: RequestAuth?

        /// Creates a record.
        public init(
            method: String, path: String, query: [String: String], headers: [String: String], body: Data, route: Route?, wasRedirected: Bool,
            auth: RequestAuth? = nil
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.route = route
            self.wasRedirected = wasRedirected
            self.auth = auth
        }

        /// The header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }

        /// The body parsed as JSON, `nil` if it is not JSON (or empty).
        public var bodyJSON: JSONValue? {
            body.isEmpty ? nil : try? JSONValue(parsing: body)
        }
    }

    /// A Remote Config fetch the server answered (not rejected for its key or body), with the
    /// fields of Firebase's fetch body.
    public struct RemoteConfigFetchRecord: Sendable, Hashable {
        /// `app_instance_id`.
        public var appInstanceID: String?
        /// `app_instance_id_token`.
        public var appInstanceIDToken: String?
        /// `app_id`.
        public var appID: String?
        /// `sdk_version`.
        public var sdkVersion: String?
        /// `language_code`.
        public var languageCode: String?
        /// `custom_signals` (an empty object when absent).
        public var customSignals: [String: JSONValue]
        /// The `If-None-Match` header.
        public var ifNoneMatch: String?
        /// The `X-Firebase-RC-Fetch-Type` header (`BASE/1`, `REALTIME/2`, …).
        public var fetchType: String?
        /// The whole body.
        public var body: JSONValue
        /// The state the server answered with (`UPDATE`, `NO_CHANGE`, `NO_TEMPLATE`,
        /// `EMPTY_CONFIG`), `NO_CHANGE` also for a 304.
        public var answeredState: String
    }

    /// A Remote Config realtime connection the server accepted.
    public struct RemoteConfigRealtimeRecord: Sendable, Hashable {
        /// `lastKnownVersionNumber` from the body (a JSON string or number), `nil` if absent.
        public var lastKnownVersionNumber: Int?
        /// The whole body.
        public var body: JSONValue
    }
}
