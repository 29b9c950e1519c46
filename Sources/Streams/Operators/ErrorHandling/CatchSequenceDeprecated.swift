extension ObservableType {
    /// Subscribes to each sequence in turn while they fail (renamed `catch(sequence:)`).
    ///
    /// - Note: RxSwift 6's attribute names `catch(onSuccess:onFailure:onDisposed:)`, which does not
    ///   exist; Streams' fix-it points at `catch(sequence:)`. See <doc:ErrorHandling>.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }
}
