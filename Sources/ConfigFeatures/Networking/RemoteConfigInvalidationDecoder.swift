import Foundation

/// Decodes the body of Remote Config's realtime stream (`…:streamFetchInvalidations`)
/// incrementally into invalidations.
///
/// The server keeps the response open and writes a JSON array one object at a time (`[`, then
/// `{…}`, `,{…}`, …, with whitespace in between), in chunks that may split anywhere. Each
/// complete object `{"latestTemplateVersionNumber": N, "featureDisabled"?: Bool,
/// "retryIntervalSeconds"?: S}` (`N` and `S` as JSON numbers or decimal strings; other members
/// ignored) becomes one ``RemoteConfigInvalidation``. An object without a version is accepted
/// only when `featureDisabled` is true (its version is then 0).
///
/// The first malformed object or stray byte yields a `.failure(.invalidResponse)` and stops
/// the decoder: later chunks return nothing.
package struct RemoteConfigInvalidationDecoder: Sendable {
    private var splitter: JSONObjectStreamSplitter
    private var failed = false
    /// The deepest JSON nesting a message may have (`.jsonTooDeep` past it).
    package let maximumJSONDepth: Int

    /// The default `maximumObjectSize`: 1 MiB (a realtime message is about 100 bytes).
    package static let defaultMaximumObjectSize = 1 << 20

    /// Creates a decoder at the start of a stream; larger objects than `maximumObjectSize` bytes
    /// (`.messageTooLarge`, nothing more is buffered) and messages nesting deeper than
    /// `maximumJSONDepth` (`.jsonTooDeep`) are rejected.
    package init(maximumObjectSize: Int = RemoteConfigInvalidationDecoder.defaultMaximumObjectSize, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) {
        splitter = JSONObjectStreamSplitter(maximumObjectSize: maximumObjectSize)
        self.maximumJSONDepth = maximumJSONDepth
    }

    /// Whether a malformed message was found (nothing more is decoded then).
    package var hasFailed: Bool { failed }

    /// Reads the next chunk and returns one result per message it completes, in order; a
    /// failure is always the last result.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Result<RemoteConfigInvalidation, RemoteConfigBackendError>] {
        guard !failed else { return [] }
        var results: [Result<RemoteConfigInvalidation, RemoteConfigBackendError>] = []
        for object in splitter.feed(bytes) {
            do throws(RemoteConfigBackendError) {
                results.append(.success(try Self.decode(object, maximumJSONDepth: maximumJSONDepth)))
            } catch {
                failed = true
                results.append(.failure(error))
                return results
            }
        }
        if let failure = splitter.failure {
            failed = true
            results.append(
                .failure(splitter.isObjectTooLarge ? .messageTooLarge(limit: splitter.maximumObjectSize) : .invalidResponse("realtime stream: \(failure)")))
        }
        return results
    }

    /// Ends the stream: the error for a message cut off by the end of the stream, else `nil`.
    package mutating func finish() -> RemoteConfigBackendError? {
        guard !failed, splitter.isInsideObject else { return nil }
        failed = true
        return .invalidResponse("realtime stream ended inside a message")
    }

    /// Decodes one realtime message (the UTF-8 text of a JSON object).
    ///
    /// - Throws: `RemoteConfigBackendError.invalidResponse` when it is not such an object,
    ///   `.jsonTooDeep` when it nests deeper than `maximumJSONDepth`.
    package static func decode(_ bytes: some Collection<UInt8>, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) throws(RemoteConfigBackendError)
        -> RemoteConfigInvalidation
    {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Data(bytes), maximumDepth: maximumJSONDepth)
        } catch let error as JSONParseError {
            if case .nestingTooDeep(let limit) = error.kind { throw .jsonTooDeep(limit: limit) }
            throw .invalidResponse("realtime message: \(error)")
        } catch {
            throw .invalidResponse("realtime message: \(error)")
        }
        guard let object = json.objectValue else { throw .invalidResponse("realtime message is not an object: \(json)") }
        let featureDisabled: Bool
        switch object["featureDisabled"] {
        case nil, .null?: featureDisabled = false
        case .bool(let value)?: featureDisabled = value
        case let other?: throw .invalidResponse("realtime message: featureDisabled is not a bool: \(other)")
        }
        let retryInterval = try retryInterval(object["retryIntervalSeconds"])
        let version = try RemoteConfigWire.templateVersion(object["latestTemplateVersionNumber"], field: "latestTemplateVersionNumber")
        guard version != nil || featureDisabled else {
            throw .invalidResponse("realtime message has no latestTemplateVersionNumber: \(json)")
        }
        return RemoteConfigInvalidation(latestTemplateVersion: version ?? 0, featureDisabled: featureDisabled, retryInterval: retryInterval)
    }

    private static func retryInterval(_ value: JSONValue?) throws(RemoteConfigBackendError) -> TimeInterval? {
        let seconds: Double?
        switch value {
        case nil, .null?: return nil
        case .number(let number)?: seconds = number
        case .string(let text)?: seconds = Double(text.trimmingCharacters(in: .whitespaces))
        case .bool?, .array?, .object?: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 0 else {
            throw .invalidResponse("realtime message: retryIntervalSeconds is not a number of seconds: \(value ?? .null)")
        }
        return seconds
    }
}
