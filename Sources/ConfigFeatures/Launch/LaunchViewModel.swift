import Foundation

/// The inputs of ``LaunchViewModel``. The launch needs none: it starts when the view model is
/// created (as the seed's first screen starts its fetch in `viewDidLoad`).
public protocol LaunchViewModelInputs {}

/// The outputs of ``LaunchViewModel``. Every output replays its current state to late
/// subscribers and never terminates.
public protocol LaunchViewModelOutputs<Config, Content> {
    /// The typed config.
    associatedtype Config
    /// The result of the dependent request.
    associatedtype Content

    /// `true` at start, then `false` exactly once, when the config is known (at the latest when
    /// the timeout fires). Replays the current value.
    var isSplashVisible: Observable<Bool> { get }
    /// The config the launch goes on with, once. Replays it.
    var config: Observable<Config> { get }
    /// The elements of the dependent request. Replays the latest one.
    var content: Observable<Content> { get }
    /// Problems, as they happen (see ``LaunchError``). Replays all of them (a launch has at most
    /// a handful).
    var error: Observable<LaunchError> { get }
}

/// Gets the Remote Config values while the splash shows, decodes them into a typed config, and
/// starts the request that depends on them the moment they are known (the seed-000 launch
/// screen, with a timeout, a fallback and both Firebase loading strategies).
///
///     fetchAndActivateBeforeShowing, fetch in time (latency 3, timeout 10, created at 0):
///     backend:          ^--a              a = answer (RemoteConfig delivers it 1 tick later)
///     isSplashVisible:  t----f            t = true, f = false
///     config:           -----c            fetched values, activated
///     loadContent:      -----^-----x|     subscribed the moment c is known
///     content:          ------------x     (delivered on the scheduler, one tick later)
///
///     fetchAndActivateBeforeShowing, slow backend (timeout 5):
///     backend:          ^-----------a     the fetch goes on; its result is stored, not activated
///     isSplashVisible:  t----f            at the timeout, exactly
///     config:           -----c            persisted (last activated) values, else the defaults
///     error:            -----T            T = .fetchTimedOut
///
///     activateCachedThenFetch:
///     isSplashVisible:  tf                the persisted values, activated at once
///     config:           -c
///     backend:          -^--a             fetched for the next launch, not activated now
///
/// Rules:
/// - The splash never stays longer than `timeout` after creation: `isSplashVisible` is `true`,
///   then `false` exactly once, when `config` is emitted (or the launch ends without one).
/// - On timeout or fetch failure the launch activates what was persisted (the last fetched
///   config, if a previous session fetched without activating) and goes on with the active
///   values over the defaults; `error` reports why (`.fetchTimedOut`, `.fetchFailed`).
/// - The config is decoded from the whole active config over the defaults
///   (`RemoteConfig.decoded(asType:)`). If that fails, `error` gets `.decodingFailed` and the
///   launch goes on with the defaults alone; if those fail too, `error` gets
///   `.defaultsDecodingFailed`, the splash is hidden, and there is no config and no content.
/// - `loadContent(config)` is subscribed the moment the config is known (not after a splash
///   animation); its elements go to `content`, its error to `error` as `.contentFailed`.
/// - Disposal is explicit: `dispose()` (or releasing the view model) cancels the timeout, the
///   pending fetch delivery, the background fetch delivery and the dependent request. A backend
///   fetch that has started still completes inside ``RemoteConfig``, as a Firebase fetch does.
///
/// - Note: Create it on `scheduler` (or before it runs). Everything is delivered on
///   `scheduler`; use the serial scheduler the ``RemoteConfig`` delivers on (the UI scheduler).
///   On `TestScheduler`, a fetch result reaches the outputs one tick after ``RemoteConfig``
///   delivers it. See <doc:Features-Launch>.
public final class LaunchViewModel<Config: Decodable, Content>: LaunchViewModelInputs, LaunchViewModelOutputs, Cancelable {
    /// The inputs (none).
    public var inputs: LaunchViewModelInputs { self }
    /// The outputs.
    public var outputs: any LaunchViewModelOutputs<Config, Content> { self }

    /// `true` at start, then `false` exactly once. Replays the current value.
    public let isSplashVisible: Observable<Bool>
    /// The config the launch goes on with, once. Replays it.
    public let config: Observable<Config>
    /// The elements of the dependent request. Replays the latest one.
    public let content: Observable<Content>
    /// Problems, as they happen. Replays all of them.
    public let error: Observable<LaunchError>

    /// The loading strategy.
    public let strategy: LaunchStrategy
    /// The longest time the splash shows (`fetchAndActivateBeforeShowing`).
    public let timeout: RxTimeInterval

    private let subscriptions = CompositeDisposable()

    /// Creates the view model and starts the launch.
    ///
    /// - Parameters:
    ///   - remoteConfig: The client; set its defaults before creating the view model.
    ///   - strategy: Fetch before showing, or show the persisted values and fetch for next time.
    ///   - timeout: The longest time the splash shows before the launch goes on without the
    ///     fetch (`.never` waits for the fetch, bounded by `RemoteConfigSettings.fetchTimeout`).
    ///   - scheduler: Runs the timeout and delivers every output.
    ///   - loadContent: The request that depends on the config; subscribed once, as soon as the
    ///     config is known. Capture the view model weakly in it, if at all.
    public init(
        remoteConfig: RemoteConfig,
        strategy: LaunchStrategy,
        timeout: RxTimeInterval,
        scheduler: SchedulerType,
        loadContent: @escaping (Config) -> Observable<Content>
    ) {
        self.strategy = strategy
        self.timeout = timeout
        let launch = LaunchRun<Config, Content>(
            remoteConfig: remoteConfig,
            scheduler: scheduler,
            loadContent: loadContent,
            subscriptions: subscriptions
        )
        isSplashVisible = launch.splash.asObservable()
        config = launch.configs.asObservable()
        content = launch.contents.asObservable()
        error = launch.errors.asObservable()
        let decision = Self.decision(remoteConfig: remoteConfig, strategy: strategy, timeout: timeout, scheduler: scheduler)
        subscriptions.insert(decision.subscribe(onNext: { launch.proceed($0) }))
    }

    deinit {
        subscriptions.dispose()
    }

    /// Whether `dispose()` was called.
    public var isDisposed: Bool { subscriptions.isDisposed }

    /// Cancels everything the launch started: the timeout, pending deliveries and the dependent
    /// request. Outputs keep their last state and do not terminate.
    public func dispose() {
        subscriptions.dispose()
    }

    /// How the launch decides which config to go on with: one element, on `scheduler`.
    private static func decision(
        remoteConfig: RemoteConfig,
        strategy: LaunchStrategy,
        timeout: RxTimeInterval,
        scheduler: SchedulerType
    ) -> Observable<LaunchDecision> {
        switch strategy {
        case .fetchAndActivateBeforeShowing:
            let fetched = remoteConfig.fetch().asObservable()
                .map { _ in LaunchDecision.fetched }
                .catch { error in .just(.fellBack(.fetchFailed(LaunchRun<Config, Content>.configError(error)))) }
                .observe(on: scheduler)
            // A fetch that has landed in the client but whose result is still on its way to
            // the view model counts as in time.
            let start = remoteConfig.scheduler.now
            let timedOut = Observable<Int>.timer(timeout, scheduler: scheduler)
                .map { _ -> LaunchDecision in
                    let landed = remoteConfig.lastFetchStatus == .success && (remoteConfig.lastFetchTime.map { $0 >= start } ?? false)
                    return landed ? .fetched : .fellBack(.fetchTimedOut)
                }
            // The first of the two wins; `take(1)` disposes the other (the timer, scheduled
            // first, wins a tie with a backend answering at the very same time).
            return Observable.merge(timedOut, fetched).take(1)
        case .activateCachedThenFetch:
            return Observable.just(.activateCached, scheduler: scheduler)
        }
    }
}

/// What the launch goes on with.
private enum LaunchDecision {
    /// The fetch succeeded in time: activate it.
    case fetched
    /// `activateCachedThenFetch`: activate what was persisted, then fetch for the next launch.
    case activateCached
    /// The fetch failed or timed out: activate what was persisted and report why.
    case fellBack(LaunchError)
}

/// The state and the steps of one launch. Lives as long as the view model's subscriptions.
private final class LaunchRun<Config: Decodable, Content> {
    let splash = BehaviorRelay(value: true)
    let configs = ReplayRelay<Config>.create(bufferSize: 1)
    let contents = ReplayRelay<Content>.create(bufferSize: 1)
    let errors = ReplayRelay<LaunchError>.createUnbound()

    private let remoteConfig: RemoteConfig
    private let scheduler: SchedulerType
    private let loadContent: (Config) -> Observable<Content>
    private let subscriptions: CompositeDisposable

    init(remoteConfig: RemoteConfig, scheduler: SchedulerType, loadContent: @escaping (Config) -> Observable<Content>, subscriptions: CompositeDisposable) {
        self.remoteConfig = remoteConfig
        self.scheduler = scheduler
        self.loadContent = loadContent
        self.subscriptions = subscriptions
    }

    /// Activates, decodes, emits the config, starts the dependent request, hides the splash.
    /// Runs once, on the scheduler.
    func proceed(_ decision: LaunchDecision) {
        // Synchronous activation, so the splash is hidden at the very tick the decision is made.
        // After a fetch it activates the fresh values; otherwise what was persisted (a fetch
        // stored by an earlier session but not activated then).
        remoteConfig.activateNow()
        if case .fellBack(let error) = decision { errors.accept(error) }
        if let config = decodeConfig() {
            configs.accept(config)
            let contents = contents
            let errors = errors
            subscriptions.insert(
                loadContent(config)
                    .observe(on: scheduler)
                    .subscribe(
                        onNext: { contents.accept($0) },
                        onError: { errors.accept(.contentFailed($0)) }
                    ))
        }
        splash.accept(false)
        if case .activateCached = decision { startBackgroundFetch() }
    }

    /// The active config over the defaults; else the defaults alone; else `nil`. Reports
    /// failures on `errors`.
    private func decodeConfig() -> Config? {
        do {
            return try remoteConfig.decoded(asType: Config.self)
        } catch {
            errors.accept(.decodingFailed(Self.decodingError(error)))
        }
        do {
            return try RemoteConfigDecoding.decode(Config.self, from: .config(defaultTexts()))
        } catch {
            errors.accept(.defaultsDecodingFailed(Self.decodingError(error)))
            return nil
        }
    }

    private func defaultTexts() -> [String: String] {
        var texts: [String: String] = [:]
        for key in remoteConfig.allKeys(from: .default) {
            if let value = remoteConfig.defaultValue(forKey: key) { texts[key] = value.stringValue }
        }
        return texts
    }

    /// Fetches for the next launch; the result is stored by ``RemoteConfig``, not activated.
    private func startBackgroundFetch() {
        let errors = errors
        subscriptions.insert(
            remoteConfig.fetch().asObservable()
                .observe(on: scheduler)
                .subscribe(onError: { errors.accept(.backgroundFetchFailed(Self.configError($0))) }))
    }

    /// A fetch failure as a ``RemoteConfigError`` (which is all `RemoteConfig.fetch()` throws).
    static func configError(_ error: Error) -> RemoteConfigError {
        (error as? RemoteConfigError) ?? .backend(.network(message: "\(error)"))
    }

    /// A decoding failure as a ``RemoteConfigError`` (which is all the decoder throws).
    private static func decodingError(_ error: Error) -> RemoteConfigError {
        (error as? RemoteConfigError) ?? .decoding("\(error)")
    }
}
