extension ObservableType {
    /// Creates a resource for each subscription and a sequence that uses it; the resource is
    /// disposed when the subscription ends.
    ///
    ///     resource:  [create ............... dispose]
    ///     source:    -a-b-c|
    ///     output:    -a-b-c|
    ///
    /// On subscribe, `resourceFactory` runs, then `observableFactory(resource)` is subscribed. The
    /// resource is disposed right after the sequence terminates (the terminal event is delivered
    /// first), or when the subscription is disposed — exactly once. If `resourceFactory` throws,
    /// the error is sent (there is no resource); if `observableFactory` throws, the error is sent
    /// and the resource disposed.
    /// - Parameters:
    ///   - resourceFactory: Creates the resource.
    ///   - observableFactory: Creates the sequence that uses the resource.
    /// - Returns: The sequence, bound to the resource's lifetime.
    /// - Note: The factories run on the subscribing thread; the events arrive as the created
    ///   sequence sends them. See <doc:Creating>.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        UsingProducer(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

final private class UsingSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run<Resource: Disposable>(
        _ resourceFactory: () throws -> Resource,
        _ observableFactory: (Resource) throws -> Observable<Element>
    ) -> Disposable {
        let resource: Resource
        do {
            resource = try resourceFactory()
        } catch {
            forwardOn(.error(error))
            return Disposables.create()
        }
        do {
            let source = try observableFactory(resource)
            // Disposed by the subscription's end: the source first, then the resource.
            let subscription = source.subscribe(self)
            return Disposables.create(subscription, resource)
        } catch {
            forwardOn(.error(error))
            return resource
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
    }
}

final private class UsingProducer<Element, Resource: Disposable>: Producer<Element> {
    private let resourceFactory: () throws -> Resource
    private let observableFactory: (Resource) throws -> Observable<Element>

    init(resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = UsingSink(observer: observer, cancel: cancel)
        let subscription = sink.run(resourceFactory, observableFactory)
        return (sink, subscription)
    }
}
