import Streams
import StreamsTest

/// Subscribes `observable` at `time` (200 unless given) into a new observer and disposes the
/// subscription at `disposed` (1000 unless given): RxTest's `start` times for tests that record
/// several sequences on one scheduler.
func record<Element>(
    _ scheduler: TestScheduler, at time: TestTime = 200, until disposed: TestTime = 1000, _ observable: @escaping () -> Observable<Element>
) -> TestableObserver<Element> {
    scheduler.recordEvents(subscribed: time, disposed: disposed, observable)
}
