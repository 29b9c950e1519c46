import Dispatch
import XCTest
@testable import Streams

/// `DrainRole`'s handshake, one step at a time on one thread: direct entry only when the role is
/// free and nothing is queued, `leave()` reporting work queued meanwhile, `drainIfIdle` draining
/// only a free role with work queued, and again while work keeps arriving.
final class DrainRoleTests: XCTestCase {
    func testDirectEntryOnlyWhenFreeAndNothingQueued() {
        let role = DrainRole()
        XCTAssertTrue(role.enterDirectly())
        XCTAssertTrue(role.isHeldByCurrentThread)
        XCTAssertFalse(role.enterDirectly())  // held
        XCTAssertFalse(role.leave())  // nothing queued
        role.markPending()
        XCTAssertFalse(role.enterDirectly())  // free, but work is queued: it must not be overtaken
        var drains = 0
        role.drainIfIdle {
            drains += 1
            XCTAssertTrue(role.isHeldByCurrentThread)
            role.clearPending()
            return nil
        }
        XCTAssertEqual(drains, 1)
        XCTAssertTrue(role.enterDirectly())
        XCTAssertFalse(role.leave())
    }

    func testLeaveReportsWorkQueuedWhileHeld() {
        let role = DrainRole()
        XCTAssertTrue(role.enterDirectly())
        role.markPending()
        var drains = 0
        role.drainIfIdle {  // the role is held: the holder drains after leaving
            drains += 1
            return nil
        }
        XCTAssertEqual(drains, 0)
        XCTAssertTrue(role.leave())
        role.drainIfIdle {
            drains += 1
            role.clearPending()
            return nil
        }
        XCTAssertEqual(drains, 1)
    }

    func testDrainRepeatsWhileWorkKeepsArriving() {
        let role = DrainRole()
        role.drainIfIdle {  // nothing queued: no drain
            XCTFail("drained with nothing queued")
            return nil
        }
        role.markPending()
        var drains = 0
        role.drainIfIdle {
            drains += 1
            role.clearPending()
            if drains < 3 { role.markPending() }  // more queued while delivering
            return nil
        }
        XCTAssertEqual(drains, 3)
        XCTAssertTrue(role.enterDirectly())
        XCTAssertFalse(role.leave())
    }

    func testAHandOffGivesTheRoleUpWithTheWorkStillQueued() {
        let role = DrainRole()
        role.markPending()
        var drains = 0
        role.drainIfIdle {
            drains += 1
            return BacklogGate.Wakeup(semaphore: DispatchSemaphore(value: 0), count: 0)
        }
        XCTAssertEqual(drains, 1)
        XCTAssertFalse(role.enterDirectly())  // still queued
        role.drainIfIdle {
            drains += 1
            role.clearPending()
            return nil
        }
        XCTAssertEqual(drains, 2)
    }
}
