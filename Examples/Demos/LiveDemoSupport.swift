// What the live variants of the demos share: a Remote Config client for the real project, a
// timeline that never prints a secret, and the listening period.
import ConfigFeatures
import Foundation

extension DemoBackends {
    /// The secrets of the selected project (API keys, database token, password, installation tokens), to
    /// scrub from printed text.
    var secrets: [String] {
        var values: [String] = []
        if case .project(let project) = remoteConfig {
            values.append(project.apiKey.value)
            // The installation's tokens, which a server's error message could echo too.
            if let record = try? projectInstallations?.storage.load() {
                values += [record.refreshToken, record.authToken?.token].compactMap { $0 }
            }
        }
        if case .project(let database) = database {
            switch database.credential {
            case .none: break
            case .idToken(let token), .accessToken(let token): values.append(token.value)
            case .signIn(let method, let apiKey):
                // The signed-in user's tokens stay inside FirebaseAuth, whose errors are scrubbed.
                values.append(apiKey.value)
                if case .email(_, let password) = method { values.append(password.value) }
            }
        }
        return values.filter { !$0.isEmpty }
    }

    /// `text` with every secret of the selected project replaced by `<redacted>` (a server's
    /// error message could echo a request's query).
    func redacted(_ text: String) -> String {
        secrets.reduce(text) { text, secret in text.replacingOccurrences(of: secret, with: "<redacted>") }
    }
}

/// A timeline for live demos: every line goes through `DemoBackends.redacted(_:)`.
struct LiveTimeline: Sendable {
    let backends: DemoBackends
    private let timeline = DemoTimeline()

    init(backends: DemoBackends) { self.backends = backends }

    /// Prints `text` with the elapsed time, secrets removed.
    func log(_ text: String) { timeline.log(backends.redacted(text)) }

    /// Prints a line without the time, secrets removed.
    func say(_ text: String) { print(backends.redacted(text)) }

    /// Blocks while the demo listens (see `DemoBackends.listen(until:)`), with a line before
    /// and after.
    func listen(for what: String, until finished: DispatchSemaphore) {
        log("listening for \(what) for \(DemoOptions.formatSeconds(backends.duration)) s …")
        let elapsed = backends.listen(until: finished)
        log(elapsed ? "listened for \(DemoOptions.formatSeconds(backends.duration)) s" : "stopped listening")
    }
}

/// The Remote Config side of a live demo: one serial queue, one client over the project.
final class LiveRemoteConfig: @unchecked Sendable {
    // Safety: every stored property is immutable and thread-safe (the client, the scheduler,
    // the queue and the semaphore are).
    let queue: DispatchQueue
    let scheduler: SerialDispatchQueueScheduler
    let remoteConfig: RemoteConfig
    let project: DemoOptions.RemoteConfigProject
    let timeline: LiveTimeline
    /// Signalled when the demo cannot go on (its realtime stream failed for good).
    let finished = DispatchSemaphore(value: 0)

    /// A client for `project` with `defaults`; fetches always ask the server (no minimum
    /// interval), bounded by 20 s.
    init(label: String, project: DemoOptions.RemoteConfigProject, backends: DemoBackends, defaults: [String: String]) {
        queue = DispatchQueue(label: label)
        scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        self.project = project
        timeline = LiveTimeline(backends: backends)
        remoteConfig = RemoteConfig(
            backend: backends.projectRemoteConfigBackend(project),
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 20),
            scheduler: scheduler
        )
        remoteConfig.setDefaults(defaults)
    }

    func log(_ text: String) { timeline.log(text) }

    /// Prints each key's value and where it came from (`remote`, `default`, `static`).
    func logValues(_ keys: [String]) {
        for key in keys {
            let value = remoteConfig.configValue(forKey: key)
            log("  \(key) = \(value.source == .static ? "(not set)" : "\"\(value.stringValue)\"") [\(value.source.rawValue)]")
        }
    }

    /// Prints a fetch failure, with a hint when the project refused the request.
    func logFetchFailure(_ error: Error) {
        log("fetch failed: \(error)")
        if case .backend(.http(let status, _))? = error as? RemoteConfigError, (400..<500).contains(status) {
            var hint = "hint: check --remote-config-project and --api-key"
            if project.appID == DemoOptions.defaultAppID { hint += ", and pass your app's ID with --app-id (the default is a placeholder)" }
            log(hint)
        }
    }

    /// Follows `configUpdates`, printing each update (and a failure, which also ends the
    /// listening); `onUpdate` runs on the queue after the line is printed.
    func followUpdates(_ onUpdate: @escaping (RemoteConfigUpdate) -> Void = { _ in }) -> Disposable {
        let finished = finished
        return remoteConfig.configUpdates
            .observe(on: scheduler)
            .subscribe(
                onNext: { [self] update in
                    log("realtime update: updatedKeys = \(update.updatedKeys.sorted())")
                    onUpdate(update)
                },
                onError: { [self] error in
                    log("realtime updates stopped: \(error)")
                    finished.signal()
                }
            )
    }

    /// Runs `work` on the queue and waits for it.
    func sync(_ work: () -> Void) { queue.sync(execute: work) }
}

extension DemoBackends {
    /// The header a live Remote Config demo prints: the project and the keys it reads.
    func printLiveRemoteConfigHeader(_ project: DemoOptions.RemoteConfigProject, keys: [String]) {
        if let note = remoteConfigNote { print(redacted(note)) }
        print("Live: reads \(keys.joined(separator: ", ")) from the project, then follows realtime updates.")
    }
}
