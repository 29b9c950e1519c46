import Foundation

/// Where a Firebase client sends its requests: Firebase's production hosts, or one emulator or
/// test-server host for every service, in the spirit of the SDKs' `useEmulator(host:port:)`.
///
///     let endpoints = try FirebaseEndpoints.emulator(port: 9000)        // every service on 127.0.0.1:9000
///     let backend = HTTPRemoteConfigBackend(project: "demo-project", apiKey: "test-api-key",
///                                           appID: "1:1:ios:1", endpoints: endpoints)
///     let database = try FirebaseRESTDatabase(endpoints: endpoints, scheduler: scheduler)
///
/// A set of endpoints is either all on this machine (loopback: `localhost`, `127.0.0.0/8`, `::1`)
/// or all elsewhere: one that mixes the two, so that a test would reach a production service for
/// part of its work, is refused with ``FirebaseEndpointsError/mixed(local:remote:)``. With local
/// endpoints the clients keep nothing on disk by default (Installations' record stays in memory),
/// so a test writes nowhere it did not choose. `FirebaseTestServer` offers its own as
/// `server.endpoints`. See <doc:Networking#Pointing-a-client-at-a-test-server>.
public struct FirebaseEndpoints: Sendable, Hashable, CustomStringConvertible {
    /// Remote Config's fetch host (`POST …/namespaces/{namespace}:fetch`).
    public let remoteConfigFetch: URL
    /// Remote Config's realtime host (`POST …:streamFetchInvalidations`).
    public let remoteConfigRealtime: URL
    /// Firebase Installations' host.
    public let installations: URL
    /// Firebase Authentication's Identity Toolkit host (`POST …/v1/accounts:signUp`, `…:signInWithPassword`, …):
    /// `https://identitytoolkit.googleapis.com`, or `http://host:port/identitytoolkit.googleapis.com` at an
    /// emulator, as Firebase's Auth emulator serves it.
    public let identityToolkit: URL
    /// Firebase Authentication's Secure Token host (`POST …/v1/token`, the ID-token refresh):
    /// `https://securetoken.googleapis.com`, or `http://host:port/securetoken.googleapis.com` at an emulator.
    public let secureToken: URL
    /// The Realtime Database root, when these endpoints name one (an emulator's or test server's,
    /// `http://127.0.0.1:9000/?ns=…`); `nil` for production, where each database has its own URL
    /// (`https://<db>.firebaseio.com`).
    public let database: URL?

    /// Firebase's production hosts.
    public static let production = FirebaseEndpoints(
        checked: (
            remoteConfigFetch: RemoteConfigWire.defaultFetchBaseURL,
            remoteConfigRealtime: RemoteConfigWire.defaultRealtimeBaseURL,
            installations: FirebaseInstallationsWire.defaultBaseURL,
            identityToolkit: FirebaseAuthWire.defaultIdentityToolkitURL,
            secureToken: FirebaseAuthWire.defaultSecureTokenURL,
            database: nil
        ))

    /// Every service at `http://host:port`, as Firebase's emulators and `FirebaseTestServer` serve
    /// them; the database's namespace, when given, is the emulator's `?ns=` query. The Auth hosts
    /// are the Auth emulator's paths, `http://host:port/identitytoolkit.googleapis.com` and
    /// `http://host:port/securetoken.googleapis.com`.
    ///
    /// - Throws: ``FirebaseEndpointsError/invalidPort(_:)`` for a port outside 1...65535,
    ///   ``FirebaseEndpointsError/invalidURL(endpoint:url:reason:)`` for a host that makes no URL.
    public static func emulator(host: String = "127.0.0.1", port: Int, databaseNamespace: String? = nil) throws(FirebaseEndpointsError) -> FirebaseEndpoints {
        guard (1...65_535).contains(port) else { throw .invalidPort(port) }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard var components = URLComponents(string: "http://\(bracketed):\(port)"), components.host?.isEmpty == false, let root = components.url else {
            throw .invalidURL(endpoint: "emulator", url: "http://\(bracketed):\(port)", reason: "the host \"\(host)\" does not make a URL")
        }
        if let databaseNamespace { components.queryItems = [URLQueryItem(name: "ns", value: databaseNamespace)] }
        let auth = FirebaseAuthWire.emulatorURLs(root: root)
        return try FirebaseEndpoints(
            remoteConfigFetch: root, remoteConfigRealtime: root, installations: root, identityToolkit: auth.identityToolkit, secureToken: auth.secureToken,
            database: components.url ?? root)
    }

    /// Endpoints you name one by one; the Auth hosts follow `installations`.
    ///
    /// The Auth hosts are then, when `installations` is on this machine, the Auth emulator's paths
    /// at its origin (`…/identitytoolkit.googleapis.com`, `…/securetoken.googleapis.com`, as
    /// ``emulator(host:port:databaseNamespace:)`` makes them), else Firebase's production hosts;
    /// so endpoints written before Authentication existed keep their meaning.
    ///
    /// - Throws: ``FirebaseEndpointsError/invalidURL(endpoint:url:reason:)`` for a URL that is not
    ///   `http` or `https` with a host, ``FirebaseEndpointsError/mixed(local:remote:)`` when some are
    ///   on this machine and others are not.
    public init(remoteConfigFetch: URL, remoteConfigRealtime: URL, installations: URL, database: URL? = nil) throws(FirebaseEndpointsError) {
        try self.init(
            validating: (remoteConfigFetch, remoteConfigRealtime, installations), identityToolkit: nil, secureToken: nil, database: database)
    }

    /// Endpoints you name one by one, the Auth hosts included.
    ///
    /// - Throws: ``FirebaseEndpointsError/invalidURL(endpoint:url:reason:)`` for a URL that is not
    ///   `http` or `https` with a host, ``FirebaseEndpointsError/mixed(local:remote:)`` when some are
    ///   on this machine and others are not (a local Remote Config with Firebase's Auth hosts, say).
    public init(
        remoteConfigFetch: URL, remoteConfigRealtime: URL, installations: URL, identityToolkit: URL, secureToken: URL, database: URL? = nil
    ) throws(FirebaseEndpointsError) {
        try self.init(
            validating: (remoteConfigFetch, remoteConfigRealtime, installations), identityToolkit: identityToolkit, secureToken: secureToken,
            database: database)
    }

    /// Checks the hosts given and derives the Auth hosts not given from `installations`.
    private init(
        validating hosts: (remoteConfigFetch: URL, remoteConfigRealtime: URL, installations: URL), identityToolkit: URL?, secureToken: URL?, database: URL?
    ) throws(FirebaseEndpointsError) {
        // Only the hosts given are checked (and named in an error): derived ones are on the same
        // side as `installations`, so they can add nothing to a mix but noise.
        var named: [(name: String, url: URL)] = [
            ("remoteConfigFetch", hosts.remoteConfigFetch), ("remoteConfigRealtime", hosts.remoteConfigRealtime), ("installations", hosts.installations),
        ]
        if let identityToolkit { named.append(("identityToolkit", identityToolkit)) }
        if let secureToken { named.append(("secureToken", secureToken)) }
        if let database { named.append(("database", database)) }
        try Self.validate(named)
        let derived =
            Self.isLoopback(hosts.installations)
            ? FirebaseAuthWire.emulatorURLs(root: Self.origin(of: hosts.installations))
            : (identityToolkit: FirebaseAuthWire.defaultIdentityToolkitURL, secureToken: FirebaseAuthWire.defaultSecureTokenURL)
        self.init(
            checked: (
                remoteConfigFetch: hosts.remoteConfigFetch, remoteConfigRealtime: hosts.remoteConfigRealtime, installations: hosts.installations,
                identityToolkit: identityToolkit ?? derived.identityToolkit, secureToken: secureToken ?? derived.secureToken, database: database
            ))
    }

    /// Endpoints already known to be valid (Firebase's own, or one loopback origin for all).
    package init(
        checked endpoints: (remoteConfigFetch: URL, remoteConfigRealtime: URL, installations: URL, identityToolkit: URL, secureToken: URL, database: URL?)
    ) {
        remoteConfigFetch = endpoints.remoteConfigFetch
        remoteConfigRealtime = endpoints.remoteConfigRealtime
        installations = endpoints.installations
        identityToolkit = endpoints.identityToolkit
        secureToken = endpoints.secureToken
        database = endpoints.database
    }

    /// Whether every endpoint is on this machine (loopback).
    public var isLocal: Bool { Self.isLoopback(installations) }

    /// The endpoints by name, e.g. `FirebaseEndpoints(remoteConfigFetch: http://127.0.0.1:9000, …)`.
    public var description: String {
        let database = self.database.map(\.absoluteString) ?? "nil"
        return "FirebaseEndpoints(remoteConfigFetch: \(remoteConfigFetch.absoluteString), remoteConfigRealtime: \(remoteConfigRealtime.absoluteString), "
            + "installations: \(installations.absoluteString), identityToolkit: \(identityToolkit.absoluteString), "
            + "secureToken: \(secureToken.absoluteString), database: \(database))"
    }

    /// Checks that every named URL is `http(s)` with a host and that they are all local or all
    /// remote (the endpoints a client actually uses, by name).
    static func validate(_ named: [(name: String, url: URL)]) throws(FirebaseEndpointsError) {
        for (name, url) in named {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw .invalidURL(endpoint: name, url: url.absoluteString, reason: "the scheme must be http or https")
            }
            guard let host = url.host, !host.isEmpty else {
                throw .invalidURL(endpoint: name, url: url.absoluteString, reason: "there is no host")
            }
        }
        let local = named.filter { isLoopback($0.url) }.map(\.name)
        let remote = named.filter { !isLoopback($0.url) }.map(\.name)
        if !local.isEmpty && !remote.isEmpty { throw .mixed(local: local, remote: remote) }
    }

    /// `url` with only its scheme, host and port (`http://127.0.0.1:9000/x?y` → `http://127.0.0.1:9000`).
    static func origin(of url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        return components.url ?? url
    }

    /// Whether `url`'s host is this machine: `localhost` (and its subdomains), `127.0.0.0/8`, `::1`.
    static func isLoopback(_ url: URL) -> Bool {
        guard var host = url.host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// Why a set of ``FirebaseEndpoints`` was refused.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseEndpointsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Some endpoints are on this machine and others are not: a client configured so would send
    /// part of a test's traffic (the `remote` ones) to a real service.
    case mixed(local: [String], remote: [String])
    /// An endpoint's URL cannot be used.
    case invalidURL(endpoint: String, url: String, reason: String)
    /// An emulator port outside 1...65535.
    case invalidPort(Int)

    /// What is wrong, and what to do.
    public var description: String {
        switch self {
        case .mixed(let local, let remote):
            return "Firebase endpoints mix this machine (\(local.joined(separator: ", "))) with remote hosts (\(remote.joined(separator: ", "))): "
                + "point every endpoint at the test server or emulator (FirebaseEndpoints.emulator(host:port:), or the server's endpoints), "
                + "or none"
        case .invalidURL(let endpoint, let url, let reason):
            return "Firebase endpoint \(endpoint) (\(url)) cannot be used: \(reason)"
        case .invalidPort(let port):
            return "Firebase emulator port \(port) is outside 1...65535"
        }
    }
}
