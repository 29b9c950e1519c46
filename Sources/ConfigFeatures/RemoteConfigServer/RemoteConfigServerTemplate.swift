import Foundation

/// A Remote Config server template, evaluated in this process for each request's context:
/// Firebase's server-side Remote Config (firebase-admin's `ServerTemplate`) for Swift servers.
///
///     let template = RemoteConfigServerTemplate(project: "my-project", apiKey: apiKey,
///                                               defaults: ["upload_limit": "10"])
///     _ = try template.load().toBlocking().first()       // or subscribe; once at start-up
///     let config = template.evaluate(randomizationID: request.userID,
///                                    customSignals: ["tier": request.tier])
///     let limit = config.value(forKey: "upload_limit").numberValue
///
/// - Loading: ``load()`` fetches the `firebase-server` namespace's template
///   (`GET /v1/projects/{project}/namespaces/firebase-server/serverRemoteConfig`, as
///   firebase-admin does) and caches it; every later ``evaluate(randomizationID:customSignals:)``
///   uses the cached template. A failed load keeps the cached template (if any) and fails with a
///   ``RemoteConfigServerTemplateError``. ``init(json:defaults:)`` caches a template you already
///   have (firebase-admin's `init_server_template(template_data_json=…)`).
/// - Evaluating: conditions are evaluated in template order as firebase-admin 7.7.0's evaluator
///   does (`and`/`or` trees, `true`/`false`, seeded `percent` on SHA-256 with micro-percent
///   ranges, custom-signal string, number and semantic-version operators); a parameter takes the
///   value of the first true condition it has a value for, else its default value. Without a
///   cached template, evaluating gives the defaults alone.
/// - Thread safety: every method may be called from any thread; the cache is guarded by a lock.
///
/// - Note: ``load()`` delivers on the transport's thread (a `URLSession` delegate queue); add
///   `observe(on:)` to move elsewhere. See <doc:ServerTemplates>.
public final class RemoteConfigServerTemplate: Sendable {
    /// The namespace of server templates.
    public static let namespace = "firebase-server"

    /// The in-app defaults: values with source `.default` for keys the template does not set.
    public let defaults: [String: String]

    private let cache: LockedState<RemoteConfigServerTemplateData?>
    private let source: Source?

    /// Where ``load()`` fetches from.
    private struct Source: Sendable {
        var url: URL
        var apiKey: String
        var timeout: TimeInterval
        var transport: any HTTPTransport
        var misconfiguration: FirebaseEndpointsError?
    }

    /// Creates a template from its JSON (what the REST API returns, or ``templateJSON``), with
    /// `defaults` for the keys it does not set. ``load()`` then fails: there is nowhere to fetch from.
    ///
    /// - Throws: ``RemoteConfigServerTemplateError/invalidJSON(_:)`` when `json` is not JSON,
    ///   ``RemoteConfigServerTemplateError/invalidTemplate(path:expected:)`` when it is not a
    ///   template (a field of the wrong type, named by its path).
    public init(json: Data, defaults: [String: String] = [:]) throws(RemoteConfigServerTemplateError) {
        self.defaults = defaults
        cache = LockedState(try RemoteConfigServerTemplateData(data: json))
        source = nil
    }

    /// Creates a template that ``load()`` fetches from a project's `firebase-server` namespace.
    ///
    /// - Parameters:
    ///   - project: The Firebase project ID.
    ///   - apiKey: The key sent as `?key=` (never logged; production Firebase also wants an
    ///     OAuth token, which this client does not send: it is meant for test servers and proxies).
    ///   - endpoints: The hosts: `.production`, `FirebaseEndpoints.emulator(port:)` or a
    ///     `FirebaseTestServer`'s `endpoints`; the template comes from `remoteConfigFetch`.
    ///   - defaults: Values with source `.default` for keys the template does not set.
    ///   - timeout: How long one load may take, in seconds (60 by default).
    public convenience init(
        project: String, apiKey: String, endpoints: FirebaseEndpoints = .production, defaults: [String: String] = [:],
        timeout: TimeInterval = RemoteConfigSettings.defaultFetchTimeout
    ) {
        self.init(project: project, apiKey: apiKey, endpoints: endpoints, defaults: defaults, timeout: timeout, transport: URLSessionTransport())
    }

    /// Creates a template fetched through `transport` (tests inject a scripted one).
    package init(
        project: String, apiKey: String, endpoints: FirebaseEndpoints, defaults: [String: String], timeout: TimeInterval, transport: any HTTPTransport
    ) {
        self.defaults = defaults
        cache = LockedState(nil)
        var misconfiguration: FirebaseEndpointsError?
        do { try FirebaseEndpoints.validate([("remoteConfigFetch", endpoints.remoteConfigFetch)]) } catch { misconfiguration = error }
        let url = endpoints.remoteConfigFetch
            .appendingPathComponent("v1/projects/\(project)/namespaces/\(Self.namespace)/serverRemoteConfig")
        source = Source(url: url, apiKey: apiKey, timeout: timeout, transport: transport, misconfiguration: misconfiguration)
    }

    /// Fetches the template and caches it; completes once cached.
    ///
    /// One request per subscription, cancelled on dispose. A failure keeps the template already
    /// cached and fails with ``RemoteConfigServerTemplateError``: `.http` for an HTTP error status
    /// (401, 404, 500, …), `.network` when no answer came, `.invalidJSON` / `.invalidTemplate`
    /// for a body that is not a template, `.misconfigured` for endpoints that mix this machine with
    /// remote hosts, and `.network` for a template made with ``init(json:defaults:)``.
    ///
    /// - Note: Delivers on the transport's thread.
    public func load() -> Completable {
        guard let source else {
            return .error(RemoteConfigServerTemplateError.network(message: "this template was made from JSON and has no server to load from"))
        }
        if let misconfiguration = source.misconfiguration { return .error(RemoteConfigServerTemplateError.misconfigured(misconfiguration)) }
        let cache = self.cache
        var components = URLComponents(url: source.url, resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "key", value: source.apiKey)]
        guard let url = components?.url else {
            return .error(RemoteConfigServerTemplateError.network(message: "the template URL is invalid"))
        }
        let request = WireRequest(method: .get, url: url, headers: ["Accept": "application/json", "X-Firebase-Client": "streams-config-features"])
        return source.transport.send(request, timeout: source.timeout)
            .map { response -> RemoteConfigServerTemplateData in
                guard response.statusCode == 200 else {
                    throw RemoteConfigServerTemplateError.http(
                        statusCode: response.statusCode, message: RemoteConfigWire.googleErrorMessage(in: response))
                }
                return try RemoteConfigServerTemplateData(data: response.body, eTag: response.header("ETag"))
            }
            .catch { error in
                if let error = error as? RemoteConfigServerTemplateError { return .error(error) }
                return .error(RemoteConfigServerTemplateError.network(message: (error as? HTTPTransportError)?.description ?? "\(error)"))
            }
            .do(onNext: { data in cache.withLock { $0 = data } })
            .ignoreElements()
            .asCompletable()
    }

    /// Whether a template is cached (from ``init(json:defaults:)`` or a successful ``load()``).
    public var isLoaded: Bool { cache.withLock { $0 != nil } }

    /// The cached template's `version.versionNumber`, when it has one.
    public var versionNumber: String? { cache.withLock { $0?.versionNumber } }

    /// The cached template's ETag (the response's `ETag` header), when it has one.
    public var eTag: String? { cache.withLock { $0?.eTag } }

    /// The cached template as JSON (firebase-admin's `to_json()`), for ``init(json:defaults:)`` later.
    public var templateJSON: Data? { cache.withLock { $0?.json }?.data() }

    /// Evaluates the cached template for one context.
    ///
    /// - Parameters:
    ///   - randomizationID: The ID `percent` conditions hash with their seed (a user or session
    ///     ID); `nil` or empty makes every `percent` condition false.
    ///   - customSignals: The values `customSignal` conditions compare; a missing or empty signal
    ///     makes its condition false. As in firebase-admin, the signals and the randomization ID
    ///     share one context: a signal named `randomization_id` is the randomization ID.
    /// - Returns: Each parameter's value (`.remote`) over ``defaults`` (`.default`).
    public func evaluate(randomizationID: String?, customSignals: [String: String]) -> RemoteConfigServerConfig {
        var context = customSignals
        if let randomizationID { context[RemoteConfigServerEvaluator.randomizationIDKey] = randomizationID }
        var values = defaults.mapValues { RemoteConfigServerValue(string: $0, source: .default) }
        guard let template = cache.withLock({ $0 }) else { return RemoteConfigServerConfig(values: values) }
        let results = RemoteConfigServerEvaluator(context: context).evaluate(template.conditions)
        for (key, parameter) in template.parameters {
            var selected: RemoteConfigServerTemplateData.Value?
            for (name, result) in results where result {
                if let name, let value = parameter.conditionalValues[name] {
                    selected = value
                    break
                }
            }
            if let selected, !selected.isEmpty {
                if !selected.useInAppDefault { values[key] = RemoteConfigServerValue(string: selected.value ?? "", source: .remote) }
                continue
            }
            guard let defaultValue = parameter.defaultValue, !defaultValue.isEmpty, !defaultValue.useInAppDefault else { continue }
            values[key] = RemoteConfigServerValue(string: defaultValue.value ?? "", source: .remote)
        }
        return RemoteConfigServerConfig(values: values)
    }
}
