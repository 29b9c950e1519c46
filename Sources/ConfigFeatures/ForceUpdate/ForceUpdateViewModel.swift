import Foundation

/// The inputs of ``ForceUpdateViewModel``.
public protocol ForceUpdateViewModelInputs: AnyObject {
    /// Send `()` when the user taps the alert's store button.
    var openStoreTapped: PublishSubject<Void> { get }
}

/// The outputs of ``ForceUpdateViewModel``, delivered on its scheduler.
public protocol ForceUpdateViewModelOutputs: AnyObject {
    /// Whether the running version is below `required_version`. Replays the current value to
    /// late subscribers (nothing before the first check) and never repeats an equal value.
    var isUpdateRequired: Observable<Bool> { get }
    /// The alert to present: a forced one when an update is required, a dismissable one when only
    /// `latest_version` is newer. Emitted when it changes, and a forced one again after each store tap.
    var presentAlert: Observable<ForceUpdateAlert> { get }
    /// The store page to open, after each store tap.
    var openStoreURL: Observable<URL> { get }
    /// Diagnostics, as ``ForceUpdateError`` values: invalid version texts, a failed initial fetch,
    /// realtime updates that stopped. Never terminates, never locks the user out.
    var error: Observable<Error> { get }
}

/// A forced-update check driven by Remote Config (seed 002), as an inputs/outputs view model.
///
/// `startObserving()` fetches and activates, compares `currentVersion` with the
/// `required_version` value, then follows `configUpdates`: each update whose `updatedKeys`
/// **contains** a version key (wherever it sits in the set) is activated, and the check runs
/// again once the activation has completed. When the running version is older, `isUpdateRequired`
/// becomes `true` and `presentAlert` emits a non-dismissable alert with the store button; each
/// tap on that button emits `openStoreURL` and presents the alert again (opening the store
/// dismisses it). An optional `latest_version` key gives a dismissable "soft" update alert.
///
///     startObserving():    ^                               (app version 3.2.1; latency 0)
///     fetchAndActivate:    --(s|)                           required_version = 3.0.0
///     isUpdateRequired:    ---false--------true-------------
///     backend publish:     ---------p                        required_version = 3.3.0 (and others)
///     configUpdates:       -----------{…, required_version, …}
///     activate():                        -(true|)
///     presentAlert:        ----------------A--------A-------   A = forced alert for 3.3.0
///     openStoreTapped:     ------------------------x--------
///     openStoreURL:        ------------------------u--------
///
/// - Missing key: not required. Unparsable text (`"abc"`, `""`): not required, and
///   `ForceUpdateError.invalidVersion` on `error`. Versions are ``AppVersion``s, so `3.2.1.5` works.
/// - A failed initial fetch emits `ForceUpdateError.fetchFailed` and still checks the last
///   activated (persisted) or default values, then follows `configUpdates`.
/// - Updates that touch neither version key are not activated and change nothing.
/// - Disposing the `startObserving()` subscription stops everything and closes the realtime
///   stream (when no one else listens).
///
/// - Note: Thread-safe. Every output is delivered on `scheduler` (use a serial one, e.g.
///   `MainScheduler.instance`), one event at a time; on `TestScheduler` one tick after the
///   Remote Config result or the tap that caused it. See <doc:Features-ForceUpdate>.
public final class ForceUpdateViewModel: ForceUpdateViewModelInputs, ForceUpdateViewModelOutputs, @unchecked Sendable {
    // Safety: the mutable state is in `state`, guarded by its lock; subjects are thread-safe and
    // are only sent to outside the lock; every other stored property is immutable. Steps are
    // handled by one `observe(on:)` sink, which never runs them concurrently.

    /// The inputs (`self`).
    public var inputs: ForceUpdateViewModelInputs { self }
    /// The outputs (`self`).
    public var outputs: ForceUpdateViewModelOutputs { self }

    /// Send `()` when the user taps the alert's store button.
    public let openStoreTapped = PublishSubject<Void>()
    /// Whether the running version is below `required_version` (replays its current value).
    public let isUpdateRequired: Observable<Bool>
    /// The alert to present (forced or soft).
    public let presentAlert: Observable<ForceUpdateAlert>
    /// The store page to open after a store tap.
    public let openStoreURL: Observable<URL>
    /// Diagnostics (``ForceUpdateError``).
    public let error: Observable<Error>

    /// The client whose values are checked.
    public let remoteConfig: RemoteConfig
    /// The running app's version.
    public let currentVersion: AppVersion
    /// The key of the minimum version (forced update).
    public let requiredVersionKey: String
    /// The key of the newest version (soft update), if any.
    public let latestVersionKey: String?
    /// The store page of the app.
    public let storeURL: URL
    /// The texts of the alerts.
    public let alertText: ForceUpdateAlertText

    private enum Step {
        case check
        case failure(ForceUpdateError)
        case storeTapped
    }

    private struct State {
        /// The last value sent on `isUpdateRequired`.
        var isUpdateRequired: Bool?
        /// The alert that is showing (forced), or the soft alert last presented.
        var alert: ForceUpdateAlert?
        /// The running observation, stopped by the next `startObserving()` or `deinit`.
        var session: Disposable?
    }

    private let scheduler: SchedulerType
    private let state = LockedState(State())
    private let requiredSubject = ReplaySubject<Bool>.create(bufferSize: 1)
    private let alertSubject = PublishSubject<ForceUpdateAlert>()
    private let storeSubject = PublishSubject<URL>()
    private let errorSubject = PublishSubject<Error>()

    /// Creates the view model; nothing happens until `startObserving()`.
    ///
    /// - Parameters:
    ///   - remoteConfig: The Remote Config client (its defaults apply when a key is not active).
    ///   - currentVersion: The running app's version (`CFBundleShortVersionString`).
    ///   - requiredVersionKey: The key of the minimum version; older versions must update.
    ///   - latestVersionKey: The key of the newest version, for a dismissable update alert;
    ///     `nil` to disable soft updates.
    ///   - storeURL: The app's store page.
    ///   - scheduler: Where every output is delivered (the UI's scheduler).
    ///   - alertText: The alerts' texts (English by default).
    public init(
        remoteConfig: RemoteConfig,
        currentVersion: AppVersion,
        requiredVersionKey: String = "required_version",
        latestVersionKey: String? = "latest_version",
        storeURL: URL,
        scheduler: SchedulerType,
        alertText: ForceUpdateAlertText = ForceUpdateAlertText()
    ) {
        self.remoteConfig = remoteConfig
        self.currentVersion = currentVersion
        self.requiredVersionKey = requiredVersionKey
        self.latestVersionKey = latestVersionKey
        self.storeURL = storeURL
        self.scheduler = scheduler
        self.alertText = alertText
        isUpdateRequired = requiredSubject.asObservable()
        presentAlert = alertSubject.asObservable()
        openStoreURL = storeSubject.asObservable()
        error = errorSubject.asObservable()
    }

    deinit {
        state.withLock { $0.session }?.dispose()
    }

    /// Starts checking: fetch and activate, check, then follow `configUpdates` and the store taps.
    ///
    ///     fetchAndActivate:  ----(s|)          or ----#  (error: fetchFailed, then check anyway)
    ///     check:             -----c
    ///     configUpdates:          ^---{k,…}--{x}---      (subscribed once the first check is decided)
    ///     activate():                 -(b|)             (only for updates containing a version key)
    ///     check:                       ---c
    ///
    /// Calling it again stops the previous observation first.
    /// - Returns: The observation; disposing it stops everything, including the realtime stream.
    /// - Note: Outputs are delivered on the view model's scheduler. See <doc:Features-ForceUpdate>.
    public func startObserving() -> Disposable {
        let remoteConfig = self.remoteConfig
        var watchedKeys: Set<String> = [requiredVersionKey]
        if let latestVersionKey { watchedKeys.insert(latestVersionKey) }

        let initial = remoteConfig.fetchAndActivate().asObservable()
            .map { _ in Step.check }
            .catch { error in
                Observable.from([Step.failure(Self.fetchError(error)), Step.check])
            }
        let updates = remoteConfig.configUpdates
            .filter { update in !update.updatedKeys.isDisjoint(with: watchedKeys) }
            .concatMap { _ in remoteConfig.activate().asObservable().map { _ in Step.check } }
            .catch { error in Observable.just(Step.failure(Self.updatesError(error))) }
        let taps = openStoreTapped.map { Step.storeTapped }

        let session = SingleAssignmentDisposable()
        let previous = state.withLock { state -> Disposable? in
            defer { state.session = session }
            return state.session
        }
        previous?.dispose()
        session.setDisposable(
            Observable.merge(initial.concat(updates), taps)
                .observe(on: scheduler)
                .subscribe(onNext: { [weak self] step in self?.handle(step) })
        )
        return session
    }

    // MARK: - Steps

    private func handle(_ step: Step) {
        switch step {
        case .check:
            check()
        case .failure(let error):
            errorSubject.onNext(error)
        case .storeTapped:
            let showing = state.withLock { $0.alert }
            storeSubject.onNext(storeURL)
            if let showing, !showing.isDismissable { alertSubject.onNext(showing) }
        }
    }

    /// Reads the active values (activation has completed), decides under the lock, sends after.
    private func check() {
        let result = ForceUpdateCheck.evaluate(
            currentVersion: currentVersion,
            required: (requiredVersionKey, remoteConfig.configValue(forKey: requiredVersionKey)),
            latest: latestVersionKey.map { ($0, remoteConfig.configValue(forKey: $0)) },
            storeURL: storeURL,
            text: alertText
        )
        let (requiredChanged, newAlert) = state.withLock { state -> (Bool, ForceUpdateAlert?) in
            let requiredChanged = state.isUpdateRequired != result.isUpdateRequired
            state.isUpdateRequired = result.isUpdateRequired
            let newAlert = result.alert != state.alert ? result.alert : nil
            state.alert = result.alert
            return (requiredChanged, newAlert)
        }
        for diagnostic in result.diagnostics { errorSubject.onNext(diagnostic) }
        if requiredChanged { requiredSubject.onNext(result.isUpdateRequired) }
        if let newAlert { alertSubject.onNext(newAlert) }
    }

    private static func fetchError(_ error: Error) -> ForceUpdateError {
        guard let error = error as? RemoteConfigError else { return .unexpected("\(error)") }
        return .fetchFailed(error)
    }

    private static func updatesError(_ error: Error) -> ForceUpdateError {
        guard let error = error as? RemoteConfigUpdateError else { return .unexpected("\(error)") }
        return .realtimeUpdatesFailed(error)
    }
}
