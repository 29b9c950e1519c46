import ConfigFeatures
import Foundation
import StreamsDemos
import XCTest

/// The group comments demo on the embedded database (its `--local-server` run is in
/// `LocalServerDemoTests`): the storyline, then the posting-while-offline and relaunch-offline
/// sections.
final class GroupCommentsDemoTests: XCTestCase {
    func testGroupCommentsDemo_embedded_postsWhileOfflineThenDeliversOnReconnect() throws {
        let output = try capturingStandardOutput { _ in
            let running = BackgroundDemo { runGroupCommentsDemo(backends: .embedded) }
            XCTAssertTrue(running.wait(), "the demo finished")
        }
        XCTAssertTrue(output.contains("active listeners: 3 (Users/user1, group0, group1)"), output)
        XCTAssertTrue(output.contains("disposed: active listeners: 0"), output)
        assertPostingWhileOffline(output)
        assertRelaunchOffline(output)
        XCTAssertTrue(output.contains("chat scale: Groups/chat holds 10,000 comments"), output)
        #if DEBUG
        let build = "debug build"
        #else
        let build = "release build"
        #endif
        #if Inspector
        let inspector = "with the stream inspector compiled in and not recording while timing"
        #else
        let inspector = "with the stream inspector compiled out"
        #endif
        XCTAssertTrue(output.contains("measured by a \(build) \(inspector), so --timeline changes none of them"), output)
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

/// Checks the relaunch-offline section of the group comments demo's `output`: the app shows
/// group2, posts offline and is closed; relaunched with no network it shows the last comments
/// (its post included) at once, from the files, and nothing more until the network is back; then
/// it gets user2's comment, user2 gets the post, and the server acknowledges it. In that order,
/// each list once.
func assertRelaunchOffline(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let start = output.range(of: "relaunch offline: user1's app keeps its database in files") else {
        return XCTFail("no relaunch-offline section\n\(output)", file: file, line: line)
    }
    let section = output[start.lowerBound...]
    let before = "group2: comment2-0, comment2-1, comment2-2, comment2-3, see you at 8"
    let cached = before + ", running late"
    let after = cached + ", where are you?"
    let ordered = [
        "relaunch offline: user1's app keeps its database in files (a temporary folder, removed at the end)\n",
        "user1's app: " + before + "\n",
        "user1's app goes offline; user1 posts \"running late\" to group2\n",
        "user1's app: " + cached + "\n",
        "user1 closes the app: its database is released, the post waits in the files\n",
        "user2 posts \"where are you?\" while the app is closed\n",
        "user2: " + before + ", where are you?\n",
        "the phone has no network; user1 opens the app again\n",
        "user1's app: " + cached + "  (",
        " ms after the launch, from the files, no network)\n",
        "0.5 s later, still no network: \"where are you?\" is not shown yet, the post still waits (pending writes: 1)\n",
        "the network is back: the app reconnects on its next retry\n",
    ]
    var rest = section
    for expected in ordered {
        guard let range = rest.range(of: expected) else {
            return XCTFail("missing, or out of order: \(expected)\n\(output)", file: file, line: line)
        }
        rest = rest[range.upperBound...]
    }
    // After the network is back: the app and user2 get the same list (in either order), then
    // the acknowledgement. The two new comments are ordered by their push IDs, which each client
    // draws from its own clock in milliseconds: user1's was drawn first, but when both fall in
    // the same millisecond (a fast machine closes the app in less) their order is the random
    // part's, as with Firebase's own clients.
    let swapped = before + ", where are you?, running late"
    let final = rest.contains("] user1's app: " + after + "\n") ? after : swapped
    for expected in ["user1's app: " + final + "\n", "user2: " + final + "\n"] {
        XCTAssertEqual(rest.components(separatedBy: "] " + expected).count - 1, 1, "once after reconnecting: \(expected)\n\(output)", file: file, line: line)
    }
    XCTAssertTrue(rest.contains("the server acknowledged the post (pending writes: 0)\n"), output, file: file, line: line)
    XCTAssertEqual(section.components(separatedBy: "] user1's app: " + cached + "  (").count - 1, 1, "the cached list once", file: file, line: line)
    XCTAssertFalse(section.contains("within 10 s)"), output, file: file, line: line)
    XCTAssertFalse(section.contains("unexpected"), output, file: file, line: line)
    XCTAssertFalse(section.contains("could not"), output, file: file, line: line)
    XCTAssertFalse(section.contains("cannot be used"), output, file: file, line: line)
}
