/// A producer that can fuse a ``ObservableType/filter(_:)`` applied to it into one stage with
/// itself (`map` then `filter`, `filter` then `filter`; see <doc:Performance>, "Operator fusion").
///
/// `filter` checks for this class with a plain class cast at its (inlined) call site, so a
/// `filter` on any other source costs a superclass-chain walk more than before, not a call.
@usableFromInline
class FusingProducer<Element>: Producer<Element> {
    @usableFromInline
    override init() { super.init() }

    /// The stage `filter(predicate)` appends to this producer: a plain filter unless a subclass
    /// fuses the two.
    @usableFromInline
    func filterStage(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        FilterProducer(source: self, predicate: predicate)
    }
}

/// The `MetatypeCache` key (beside the producer's own type) of the fused producer a
/// `FusingProducer` returns from `filterStage(_:)`.
enum FilterStageKey {}
