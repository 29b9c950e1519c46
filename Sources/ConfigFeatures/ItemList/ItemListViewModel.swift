import Foundation

/// The inputs of ``ItemListViewModel``.
public protocol ItemListViewModelInputs {
    /// Each `next` fetches, activates and reads the items (refused while a fetch runs).
    var fetchTrigger: PublishSubject<Void> { get }
}

/// The outputs of ``ItemListViewModel``.
public protocol ItemListViewModelOutputs<Item> {
    /// The item type.
    associatedtype Item

    /// The last good items: `[]` at start, then each list read successfully. Replays the
    /// current list.
    var items: Observable<[Item]> { get }
    /// `false` at start, `true` while a fetch runs, `false` after. Replays the current value.
    var isLoading: Observable<Bool> { get }
    /// Failures as they happen: `.notEnabled` for a trigger while loading,
    /// `.underlyingError(ItemListError…)` for a bad value, `.underlyingError(RemoteConfigError…)`
    /// for a failed fetch. Does not replay.
    var error: Observable<ActionError> { get }
}

/// A list whose items come from a JSON array in one Remote Config key, refreshed on demand
/// (the seed-001 view model: `inputs.fetchTrigger`, `outputs.items / isLoading / error`, built
/// on `Action`).
///
///     (expirationDuration: 0, backend latency 3; results reach the outputs 2 ticks after the answer)
///     fetchTrigger: --x-x---------x------
///     backend:      --^--a--------^--b---   a = [1, 2], b = invalid JSON
///     isLoading:    f-t----f------t----f-
///     items:        []-----[1,2]---------   kept after the failure
///     error:        ----N--------------E-   N = .notEnabled, E = .underlyingError(ItemListError.invalidJSON…)
///
/// - Each trigger fetches with `expirationDuration` (180 s, as in the seed: a trigger within
///   180 s of the last successful fetch is served from it without a backend call), activates,
///   and only then reads `itemsKey` (the seed read the value once at init and kept showing
///   stale data).
/// - The value is parsed as a JSON array and every element decoded as `Item` (with
///   `JSONDecoder`'s rules). A missing key, text that is not JSON, JSON that is not an array, or
///   any element that does not decode fails the whole read with an ``ItemListError`` (naming the
///   first bad index): partial lists are never shown, and `items` keeps the last good list.
/// - A trigger while a fetch runs is refused, as `Action` does: `error` gets `.notEnabled`
///   and nothing is queued.
///
/// - Note: Fetch results (`items`, `error`, `isLoading` = `false`) are delivered on
///   `scheduler` (on `TestScheduler`, one tick after ``RemoteConfig`` delivers the fetch);
///   `isLoading` = `true` and `.notEnabled` arrive on the thread of the trigger. Send triggers
///   on `scheduler`'s thread (the UI thread): from another thread, `isLoading` may briefly show
///   a new fetch's `true` before the previous one's `false`.
///   See <doc:Features-ItemList>.
public final class ItemListViewModel<Item: Decodable>: ItemListViewModelInputs, ItemListViewModelOutputs {
    /// The inputs.
    public var inputs: ItemListViewModelInputs { self }
    /// The outputs.
    public var outputs: any ItemListViewModelOutputs<Item> { self }

    // MARK: Inputs

    /// Each `next` fetches, activates and reads the items.
    public let fetchTrigger = PublishSubject<Void>()

    // MARK: Outputs

    /// The last good items (`[]` at start). Replays the current list.
    public let items: Observable<[Item]>
    /// `false` at start, `true` while a fetch runs, `false` after. Replays the current value.
    public let isLoading: Observable<Bool>
    /// Failures as they happen (`ActionError`).
    public let error: Observable<ActionError>

    /// The config key holding the JSON array.
    public let itemsKey: String
    /// How long a successful fetch stays fresh, in seconds.
    public let expirationDuration: TimeInterval
    /// The deepest JSON nesting the value may have (`ItemListError.jsonTooDeep` past it).
    public let maximumJSONDepth: Int

    private let fetchAction: Action<Void, [Item]>
    private let latestItems = BehaviorRelay<[Item]>(value: [])
    private let disposeBag = DisposeBag()

    /// Creates the view model. Nothing is fetched until `fetchTrigger` fires.
    ///
    /// - Parameters:
    ///   - remoteConfig: The client.
    ///   - itemsKey: The key whose value is a JSON array of items.
    ///   - expirationDuration: How long a successful fetch stays fresh (180 s, as in the seed).
    ///   - scheduler: Where fetch results are delivered (the UI scheduler).
    ///   - maximumJSONDepth: The deepest JSON nesting of the value
    ///     (`JSONValue.defaultMaximumDepth`, 512, by default).
    public init(
        remoteConfig: RemoteConfig, itemsKey: String, expirationDuration: TimeInterval = 180, scheduler: SchedulerType,
        maximumJSONDepth: Int = JSONValue.defaultMaximumDepth
    ) {
        self.itemsKey = itemsKey
        self.expirationDuration = expirationDuration
        self.maximumJSONDepth = maximumJSONDepth
        fetchAction = Action { _ in
            remoteConfig.fetch(withExpirationDuration: expirationDuration)
                .map { _ -> [Item] in
                    // Activate synchronously (the seed's `activateFetched: true`), then read the
                    // value: after activation, never before.
                    remoteConfig.activateNow()
                    return try ItemListParsing.items(
                        Item.self, from: remoteConfig.configValue(forKey: itemsKey), key: itemsKey, maximumJSONDepth: maximumJSONDepth)
                }
                .observe(on: scheduler)
        }
        items = latestItems.asObservable()
        isLoading = fetchAction.executing
        error = fetchAction.errors
        fetchAction.elements.bind(to: latestItems).disposed(by: disposeBag)
        fetchTrigger.bind(to: fetchAction.inputs).disposed(by: disposeBag)
    }
}

/// Reads a JSON array of `Decodable` elements from a config value.
enum ItemListParsing {
    /// The items of `value`, or an ``ItemListError``.
    static func items<Item: Decodable>(_ type: Item.Type, from value: RemoteConfigValue, key: String, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth)
        throws -> [Item]
    {
        guard value.source != .static else { throw ItemListError.missingKey(key) }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: value.dataValue, maximumDepth: maximumJSONDepth)
        } catch let error as JSONParseError {
            if case .nestingTooDeep(let limit) = error.kind { throw ItemListError.jsonTooDeep(key: key, limit: limit) }
            throw ItemListError.invalidJSON(key: key, reason: error.message)
        }
        guard case .array(let elements) = json else {
            throw ItemListError.notAnArray(key: key, found: shortened(json.serialized()))
        }
        var items: [Item] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                items.append(try element.decoded(as: Item.self))
            } catch let error as DecodingError {
                throw ItemListError.invalidElement(key: key, index: index, reason: RemoteConfigDecoding.describe(error))
            } catch {
                throw ItemListError.invalidElement(key: key, index: index, reason: "\(error)")
            }
        }
        return items
    }

    private static func shortened(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}
