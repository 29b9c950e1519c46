extension ObservableType {
    /// Emits one element, then completes.
    ///
    ///     output: (a|)
    public static func just(_ element: Element) -> Observable<Element> {
        Observable.create { observer in
            observer.onNext(element)
            observer.onCompleted()
            return Disposables.create()
        }
    }

    /// Emits one element on `scheduler`, then completes.
    ///
    /// - Note: Delivers on `scheduler`. See `Guides/Creating.md`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.create { observer in
            scheduler.scheduleRecursive(true) { emitElement, recurse in
                if emitElement {
                    observer.onNext(element)
                    recurse(false)
                } else {
                    observer.onCompleted()
                }
            }
        }
    }

    /// Completes at once without elements.
    ///
    ///     output: |
    public static func empty() -> Observable<Element> {
        Observable.create { observer in
            observer.onCompleted()
            return Disposables.create()
        }
    }

    /// Never emits and never terminates.
    ///
    ///     output: ------…
    public static func never() -> Observable<Element> {
        Observable.create { _ in Disposables.create() }
    }

    /// Fails at once with `error`.
    ///
    ///     output: #
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        Observable.create { observer in
            observer.onError(error)
            return Disposables.create()
        }
    }
}
