import Dispatch
import Streams
import StreamsTest
import Synchronization
import XCTest

/// Debug builds report an observer entered by two threads at once (`Hooks.synchronizationAnomaly`),
/// from the sinks of ordinary operators and of the stages a subject registers as its own nodes.
/// Deterministic: one thread is held inside the observer by a semaphore while another delivers.
final class DeliveryCheckTests: XCTestCase {
    private var savedHandler: (@Sendable (String) -> Void)?
    private let reports = Reports()

    override func setUp() {
        super.setUp()
        savedHandler = Hooks.synchronizationAnomaly
        let reports = reports
        Hooks.synchronizationAnomaly = { message in reports.messages.withLock { $0.append(message) } }
    }

    override func tearDown() {
        if let savedHandler { Hooks.synchronizationAnomaly = savedHandler }
        super.tearDown()
    }

    /// Delivers `1` on another thread and, while that thread is inside the observer, `2` on this
    /// one; returns the anomaly reports.
    private func deliverConcurrently(through operation: (Observable<Int>) -> Observable<Int>) throws -> [String] {
        #if !DEBUG
        throw XCTSkip("the check exists in debug builds only")
        #else
        let subject = PublishSubject<Int>()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = operation(subject.asObservable()).subscribe(onNext: { value in
            received.withLock { $0.append(value) }
            if value == 1 {
                inside.signal()
                release.wait()
            }
        })
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subject.onNext(1)
            done.signal()
        }
        inside.wait()
        subject.onNext(2)
        release.signal()
        done.wait()
        subscription.dispose()
        XCTAssertEqual(received.withLock { $0.sorted() }, [1, 2])
        return reports.messages.withLock { $0 }
        #endif
    }

    func testStageSink_concurrentDeliveryIsReported() throws {
        var messages: [String] = []
        try XCTAssertNoLeaksEventually { messages = try deliverConcurrently { $0.map { $0 } } }
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("was called concurrently from two threads") == true, "\(messages)")
    }

    func testSink_concurrentDeliveryIsReported() throws {
        var messages: [String] = []
        try XCTAssertNoLeaksEventually { messages = try deliverConcurrently { $0.scan(0) { _, value in value } } }
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("was called concurrently from two threads") == true, "\(messages)")
    }

    /// A reentrant delivery on the same thread (the observer makes the source emit again) is not concurrent.
    func testReentrantDelivery_isNotReported() {
        var received: [Int] = []
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 }.subscribe(onNext: { value in
                received.append(value)
                if value == 1 { subject.onNext(2) }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(reports.messages.withLock { $0 }, [])
    }
}

/// The anomaly messages a test's handler received.
private final class Reports: Sendable {
    let messages = Mutex<[String]>([])
}
