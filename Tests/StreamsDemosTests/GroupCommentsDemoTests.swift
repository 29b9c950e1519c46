import ConfigFeatures
import Foundation
import StreamsDemos
import XCTest

/// The group comments demo on the embedded database (its `--local-server` run is in
/// `LocalServerDemoTests`): the storyline, then the posting-while-offline section.
final class GroupCommentsDemoTests: XCTestCase {
    func testGroupCommentsDemo_embedded_postsWhileOfflineThenDeliversOnReconnect() throws {
        let output = try capturingStandardOutput { _ in
            let running = BackgroundDemo { runGroupCommentsDemo(backends: .embedded) }
            XCTAssertTrue(running.wait(), "the demo finished")
        }
        XCTAssertTrue(output.contains("active listeners: 3 (Users/user1, group0, group1)"), output)
        XCTAssertTrue(output.contains("disposed: active listeners: 0"), output)
        assertPostingWhileOffline(output)
        XCTAssertTrue(output.contains("chat scale: Groups/chat holds 10,000 comments"), output)
    }
}

/// Checks the posting-while-offline section of the group comments demo's `output`: the phone
/// shows the post at once while offline, user2 gets it only after the phone is back online,
/// and the server acknowledges it; each line once, in that order.
func assertPostingWhileOffline(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
    let before = "group2: comment2-0, comment2-1, comment2-2, comment2-3"
    let after = before + ", see you at 8"
    let lines = [
        "posting while offline: user1's phone reads and writes through a LocalFirstRealtimeDatabase; user2 follows group2 from another client",
        "user1's phone goes offline (goOffline())",
        "user1 posts \"see you at 8\" to group2",
        "user1's phone: " + after,
        "user2 does not have it: the post waits on the phone (pending writes: 1)",
        "user1's phone is back online (goOnline()): the queued post is sent",
        "user2: " + after,
        "the server acknowledged the post (pending writes: 0)",
    ]
    var rest = output[...]
    for expected in lines {
        guard let range = rest.range(of: expected + "\n") else {
            return XCTFail("missing, or out of order: \(expected)\n\(output)", file: file, line: line)
        }
        rest = rest[range.upperBound...]
    }
    for expected in ["user1's phone: " + before, "user2: " + before, "user1's phone: " + after, "user2: " + after] {
        XCTAssertEqual(output.components(separatedBy: "] " + expected + "\n").count - 1, 1, "once: \(expected)", file: file, line: line)
    }
    XCTAssertFalse(output.contains("(unexpected while offline)"), output, file: file, line: line)
    XCTAssertFalse(output.contains("within 10 s)"), output, file: file, line: line)
    XCTAssertFalse(output.contains("the post failed"), output, file: file, line: line)
}
