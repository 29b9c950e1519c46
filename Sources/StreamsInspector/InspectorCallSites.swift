#if Inspector
@_spi(StreamsInspectorSupport) import Streams
import Foundation

#if os(Linux) && canImport(Runtime)
import Runtime
#endif

/// A subscription's call stack, captured cheaply when the inspector records it (return addresses
/// only) and symbolicated when it is read (``Inspector/snapshot()``, the exports).
struct CapturedCallStack: Sendable {
    #if os(Linux) && canImport(Runtime)
    let backtrace: Backtrace

    /// Frames kept, counted from the innermost (the inspector's own frames are dropped later).
    static let depth = 48

    /// The calling thread's stack: about a microsecond (the frame walk), no symbol lookup.
    @inline(never)
    static func capture() -> CapturedCallStack? {
        (try? Backtrace.capture(limit: depth, offset: 1, top: 0, images: CallSiteSymbolicator.imagesAtStart)).map(CapturedCallStack.init)
    }

    /// The return addresses, the cache's key.
    var addresses: [UInt64] { backtrace.frames.map { UInt64($0.originalProgramCounter) ?? 0 } }
    #else
    let symbols: [String]

    @inline(never)
    static func capture() -> CapturedCallStack? { CapturedCallStack(symbols: Thread.callStackSymbols) }

    var addresses: [String] { symbols }
    #endif
}

/// Turns captured call stacks into ``InspectorSnapshot/CallSite``s, the user's code first.
enum CallSiteSymbolicator {
    /// Call sites kept per distinct stack, beyond which the cache starts again.
    private static let cacheLimit = 2048
    /// Call sites shown per chain.
    static let shownFrames = 16

    #if os(Linux) && canImport(Runtime)
    /// The loaded images, read once (about half a millisecond) so that each capture does not
    /// read them again; symbolication reads them afresh, so later-loaded libraries are found.
    static let imagesAtStart = ImageMap.capture()
    private static let cache = LockedState([[UInt64]: [InspectorSnapshot.CallSite]]())
    #else
    private static let cache = LockedState([[String]: [InspectorSnapshot.CallSite]]())
    #endif

    /// The call sites of each stack (`nil` gives `[]`), computed outside any lock of the
    /// inspector's; stacks seen before come from a cache.
    static func callSites(of stacks: [CapturedCallStack?]) -> [[InspectorSnapshot.CallSite]] {
        let keys = stacks.map { $0?.addresses }
        let cached = cache.withLock { cache in keys.map { $0.flatMap { cache[$0] } } }
        guard zip(stacks, cached).contains(where: { $0 != nil && $1 == nil }) else {
            return cached.map { $0 ?? [] }
        }
        #if os(Linux) && canImport(Runtime)
        let images = ImageMap.capture()
        #endif
        var results: [[InspectorSnapshot.CallSite]] = []
        var computed: [(key: [UInt64], sites: [InspectorSnapshot.CallSite])] = []
        for (stack, known) in zip(stacks, cached) {
            if let known {
                results.append(known)
                continue
            }
            guard let stack else {
                results.append([])
                continue
            }
            #if os(Linux) && canImport(Runtime)
            let sites = symbolicate(stack.backtrace, images: images)
            computed.append((stack.addresses, sites))
            #else
            let sites = stack.symbols.dropFirst(4).prefix(shownFrames).map {
                InspectorSnapshot.CallSite(
                    function: $0, file: nil, line: nil, image: nil, address: nil,
                    missing: "no file and line: symbolication needs the Swift runtime's backtracing module (Linux)")
            }
            computed.append((stack.symbols, sites))
            #endif
            results.append(sites)
        }
        cache.withLock { cache in
            if cache.count + computed.count > cacheLimit { cache.removeAll() }
            for entry in computed { cache[entry.key] = entry.sites }
        }
        return results
    }

    #if os(Linux) && canImport(Runtime)
    /// The frames after Streams' own (and the capture's), the innermost first, each with its
    /// function, file and line where the binary has them, and what is missing where not.
    static func symbolicate(_ backtrace: Backtrace, images: ImageMap) -> [InspectorSnapshot.CallSite] {
        guard let symbolicated = backtrace.symbolicated(with: images) else {
            return backtrace.frames.prefix(shownFrames).map {
                InspectorSnapshot.CallSite(
                    function: nil, file: nil, line: nil, image: nil, address: "\($0.originalProgramCounter)",
                    missing: "no symbol: the backtracing module could not read the loaded images")
            }
        }
        let frames = symbolicated.frames.drop { isLibraryFrame($0) }
        return frames.prefix(shownFrames).map { frame in
            let address = "\(frame.captured.originalProgramCounter)"
            // A stripped binary's frames come back with the symbol `<unknown>`.
            guard let symbol = frame.symbol, symbol.rawName != "<unknown>", !symbol.rawName.isEmpty else {
                let image = images.indexOfImage(at: frame.captured.originalProgramCounter).flatMap { images[$0].name }
                return InspectorSnapshot.CallSite(
                    function: nil, file: nil, line: nil, image: image, address: address,
                    missing: "no symbol: \(image ?? "the binary") is stripped, or the address is in no image")
            }
            let location = symbol.sourceLocation
            return InspectorSnapshot.CallSite(
                function: symbol.name, file: location?.path, line: location.map(\.line), image: symbol.imageName,
                address: address,
                missing: location == nil ? "no file and line: \(symbol.imageName) has no debug info (build it with -g)" : nil)
        }
    }

    /// Whether a frame belongs to the capture, to Streams, StreamsInspector or StreamsBlocking (its mangled name
    /// says its module: `toBlocking()` subscribes from its own frames), or is a thunk, so it is
    /// not where the user's code subscribed.
    private static func isLibraryFrame(_ frame: SymbolicatedBacktrace.Frame) -> Bool {
        guard let symbol = frame.symbol else { return false }
        // Code the compiler wrote (a thunk, an inlined standard-library helper) is never where
        // the user's code subscribed.
        if symbol.sourceLocation?.path.hasSuffix("<compiler-generated>") == true { return true }
        let name = symbol.rawName
        return name.hasPrefix("$s7Streams") || name.hasPrefix("$s16StreamsInspector") || name.hasPrefix("$s15StreamsBlocking")
            || name.hasPrefix("$s7Runtime")
            || frame.isSwiftThunk
    }
    #endif
}
#endif
