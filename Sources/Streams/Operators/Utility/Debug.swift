import Foundation

extension ObservableType {
    /// Prints every subscription, event and disposal, with a timestamp, passing events through unchanged.
    ///
    ///     2024-05-01 12:00:00.000: tag -> subscribed
    ///     2024-05-01 12:00:00.001: tag -> Event next(1)
    ///     2024-05-01 12:00:00.002: tag -> Event completed
    ///     2024-05-01 12:00:00.002: tag -> isDisposed
    ///
    /// - Parameters:
    ///   - identifier: The tag printed on each line; defaults to `File.swift:line (function)` of the call.
    ///   - trimOutput: Whether to shorten event descriptions longer than 40 characters to
    ///     their first and last 20, joined by `...`.
    ///   - file: The calling file, used for the default identifier (filled in by the compiler).
    ///   - line: The calling line, used for the default identifier.
    ///   - function: The calling function, used for the default identifier.
    /// - Returns: The source sequence, logged.
    /// - Note: Prints on the thread that delivers each event. See <doc:Utility>.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function)
        -> Observable<Element>
    {
        let tag: String
        if let identifier {
            tag = identifier
        } else {
            let fileName = file.split(separator: "/").last.map(String.init) ?? file
            tag = "\(fileName):\(line) (\(function))"
        }
        return DebugProducer(source: asObservable(), identifier: tag, trimOutput: trimOutput)
    }
}

/// Where ``ObservableType/debug(_:trimOutput:file:line:function:)`` writes its lines: standard output, unless a test redirects it.
package enum DebugOutput {
    private static let writer = LockedState<@Sendable (String) -> Void>({ line in print(line) })

    /// The function that receives each line.
    package static var write: @Sendable (String) -> Void {
        get { writer.withLock { $0 } }
        set { writer.withLock { $0 = newValue } }
    }
}

final private class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private static var maxEventTextLength: Int { 40 }

    private let identifier: String
    private let trimOutput: Bool
    private let formatter: DateFormatter
    private let loggedDispose = AtomicFlag()

    init(identifier: String, trimOutput: Bool, observer: Observer, cancel: SinkDisposer) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        super.init(observer: observer, cancel: cancel)
        log("subscribed")
    }

    private func log(_ content: String) {
        let write = DebugOutput.write
        write("\(formatter.string(from: Date())): \(identifier) -> \(content)")
    }

    func on(_ event: Event<Element>) {
        var text = event.debugDescription
        let limit = Self.maxEventTextLength
        if trimOutput && text.count > limit {
            text = String(text.prefix(limit / 2)) + "..." + String(text.suffix(limit / 2))
        }
        log("Event \(text)")
        forwardOn(event)
    }

    override func dispose() {
        if loggedDispose.set() {
            log("isDisposed")
        }
        super.dispose()
    }
}

final private class DebugProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool

    init(source: Observable<Element>, identifier: String, trimOutput: Bool) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
