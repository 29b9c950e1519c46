/// An object that is both an observable sequence and an observer.
public protocol SubjectType: ObservableType {
    /// The observer type of the subject.
    associatedtype Observer: ObserverType

    /// Returns the subject's observer side.
    func asObserver() -> Observer
}
