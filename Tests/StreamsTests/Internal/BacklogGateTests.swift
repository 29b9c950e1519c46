import XCTest

@testable import Streams

final class BacklogGateTests: XCTestCase {
    func testAdmit_waitsOnlyPastTheBoundAndNeverReentrantly() {
        var gate = BacklogGate()
        XCTAssertNil(gate.admit(queued: BacklogGate.limit, isReentrant: false))
        XCTAssertNil(gate.admit(queued: BacklogGate.limit + 1, isReentrant: true))
        XCTAssertNotNil(gate.admit(queued: BacklogGate.limit + 1, isReentrant: false))
    }

    func testFinish_wakesProducersThatWaitWithNothingQueued() throws {
        // A producer admitted to wait after a long turn (served >= limit) whose element was
        // dropped (the sink had terminated) leaves nothing for the drainer to take: the drainer's
        // finding the queue empty must wake it, or it waits for ever.
        var gate = BacklogGate()
        gate.serve(BacklogGate.limit)
        let semaphore = try XCTUnwrap(gate.admit(queued: 0, isReentrant: false))
        let wakeup = try XCTUnwrap(gate.finish())
        XCTAssertEqual(wakeup.count, 1)
        wakeup.run()
        XCTAssertEqual(semaphore.wait(timeout: .now()), .success, "the waiting producer was signalled")
        XCTAssertNil(gate.finish(), "nobody waits any more")
        XCTAssertNil(gate.admit(queued: 0, isReentrant: false), "a new turn starts unbounded")
    }

    func testRelease_wakesWaitersOnceTheQueueShrank() throws {
        var gate = BacklogGate()
        _ = try XCTUnwrap(gate.admit(queued: BacklogGate.limit + 1, isReentrant: false))
        XCTAssertNil(gate.release(queued: BacklogGate.limit))
        XCTAssertEqual(gate.release(queued: BacklogGate.limit / 2)?.count, 1)
        XCTAssertNil(gate.release(queued: 0))
    }
}
