/// Carries a non-`Sendable` value across a concurrency boundary that Streams knows to be safe.
///
/// Every use site states, with a `// Safety:` comment, why the value is not touched
/// concurrently (usually: ownership is handed over to the scheduler and the caller
/// keeps no reference).
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
    // Safety: the wrapper itself adds no sharing; each construction site documents
    // why the wrapped value is used by one thread at a time.
    @usableFromInline package var value: Value

    @usableFromInline
    package init(_ value: Value) { self.value = value }
}
