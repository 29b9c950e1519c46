#if Inspector
import Dispatch
import Foundation
import Streams
import StreamsInspector
import StreamsBlocking
import XCTest

/// The inspector's answers to "where and when" (issue 29, item 5): where a chain was subscribed
/// (symbolicated), on which thread, the whole value of each event, and a page that shows it all.
final class InspectorWhereAndWhenTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    func testCallStack_firstFrameIsTheSubscribingFunctionWithThisFileAndLine() throws {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let line = #line + 1
        let subscription = subject.map { $0 * 2 }.named("doubled").subscribe(onNext: { _ in })
        defer { subscription.dispose() }

        let chain = try XCTUnwrap(Inspector.snapshot().chains.first { $0.name == "doubled" })
        let first = try XCTUnwrap(chain.callStack.first)
        #if os(Linux) && DEBUG
        // Streams' own frames are skipped: the first is this test, from the debug information.
        XCTAssertTrue(first.contains("testCallStack_firstFrameIsTheSubscribingFunctionWithThisFileAndLine"), first)
        XCTAssertTrue(first.hasSuffix("InspectorWhereAndWhenTests.swift:\(line)"), first)
        #endif
        XCTAssertFalse(first.contains("(+0x"), "not a raw address: \(first)")
    }

    func testCallStack_throughToBlocking_firstFrameIsTheCaller() throws {
        Inspector.start()
        let line = #line + 1
        let value = try Observable.just(21).map { $0 * 2 }.named("blocked").toBlocking().first()
        XCTAssertEqual(value, 42)

        let chain = try XCTUnwrap(Inspector.snapshot().chains.first { $0.name == "blocked" })
        let first = try XCTUnwrap(chain.callStack.first)
        #if os(Linux) && DEBUG
        // Streams' and StreamsBlocking's frames (toBlocking's run, the trampoline) are skipped.
        XCTAssertTrue(first.contains("testCallStack_throughToBlocking_firstFrameIsTheCaller"), first)
        XCTAssertTrue(first.hasSuffix("InspectorWhereAndWhenTests.swift:\(line)"), first)
        #endif
        XCTAssertFalse(first.contains("BlockingObservable"), first)
    }

    func testThreads_areNamedByMainQueueLabelOrThreadName() throws {
        Inspector.start()
        let subject = PublishSubject<String>()
        let group = DispatchGroup()
        let worker = DispatchQueue(label: "com.example.worker")
        let subscription = worker.sync { subject.named("on-worker").subscribe(onNext: { _ in }) }
        DispatchQueue.global(qos: .userInitiated).async(group: group) { subject.onNext("from a global queue") }
        group.wait()
        worker.async(group: group) { subject.onNext("from the worker") }
        group.wait()
        let thread = Thread {
            nameCurrentThread("Renderer")
            subject.onNext("from a named thread")
            group.leave()
        }
        group.enter()
        thread.start()
        group.wait()
        subject.onNext("from main")
        defer { subscription.dispose() }

        let chain = try XCTUnwrap(Inspector.snapshot().chains.first { $0.name == "on-worker" })
        XCTAssertEqual(chain.thread, "com.example.worker")
        let threads = Inspector.events(labelled: "on-worker").map(\.thread)
        XCTAssertEqual(threads.count, 4)
        XCTAssertTrue(threads[0].hasPrefix("global queue (user-initiated QoS), thread "), threads[0])
        XCTAssertEqual(Array(threads.dropFirst()), ["com.example.worker", "Renderer", "main"])
        XCTAssertFalse(threads.contains { $0.hasSuffix("qos.overcommit") || $0.hasPrefix("-") }, "\(threads)")
    }

    func testThreads_nameEachQueueByItsOwnLabelWhenAFreedQueuesAddressIsReused() throws {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.named("queues").subscribe(onNext: { _ in })
        defer { subscription.dispose() }
        // Each queue is freed before the next is made: libdispatch's copy of a label may then be
        // at the address of the last one's (same size), on the same thread (`sync`).
        for index in 0..<20 {
            do {
                let queue = DispatchQueue(label: "queue-\(index + 10)")
                queue.sync { subject.onNext(index) }
            }
        }
        subject.onNext(-1)
        let threads = Inspector.events(labelled: "queues").map(\.thread)
        XCTAssertEqual(threads, (0..<20).map { "queue-\($0 + 10)" } + ["main"])
    }

    func testValues_areKeptWholeUpTo4KiBThenCutWithTheirSize() throws {
        Inspector.start()
        let subject = PublishSubject<String>()
        let subscription = subject.named("text").subscribe(onNext: { _ in })
        defer { subscription.dispose() }
        let short = String(repeating: "x", count: 1000)
        let long = String(repeating: "y", count: 5000)
        let accented = String(repeating: "é", count: 3000)  // 6000 bytes, two per character
        for value in [short, long, accented, String(repeating: "z", count: 4096)] { subject.onNext(value) }

        let values = Inspector.events(labelled: "text").map(\.value)
        XCTAssertEqual(Inspector.Configuration().valueLength, 4096)
        XCTAssertEqual(values[0], short, "kept whole, not cut for the lane")
        XCTAssertEqual(values[1], String(repeating: "y", count: 4096) + "…(truncated, 5000 bytes)")
        XCTAssertEqual(values[2], String(repeating: "é", count: 2048) + "…(truncated, 6000 bytes)", "cut between characters")
        XCTAssertEqual(values[3], String(repeating: "z", count: 4096), "the bound itself is kept whole")
    }

    func testExportHTML_fitsTheTimelineToTheWidthAndCarriesWholeValues() throws {
        Inspector.start()
        let subject = PublishSubject<String>()
        let subscription = subject.named("long").subscribe(onNext: { _ in })
        defer { subscription.dispose() }
        let value = (0..<200).map { "item\($0)" }.joined(separator: ",")
        subject.onNext(value)

        let html = Inspector.exportHTML()
        let svgStart = try XCTUnwrap(html.range(of: "<div class=\"timeline\" id=\"named-streams\">"))
        let svg = html[svgStart.upperBound...]
        XCTAssertTrue(svg.contains("data-plot-left=\""), "where the time axis starts, for the zoom")
        XCTAssertTrue(svg.contains("data-x2=\""), "the axes the zoom stretches")
        XCTAssertTrue(html.contains("function fit()"), "the page fits each timeline to the width")
        XCTAssertTrue(html.contains("button.dataset.zoom"), "with zoom buttons")
        XCTAssertTrue(svg.contains("data-event=\"1\" tabindex=\"0\" role=\"button\""), "marbles are focusable and point at their event")
        XCTAssertTrue(html.contains("<aside id=\"detail\""), "the detail panel")
        let json = try XCTUnwrap(html.range(of: "id=\"inspector-data\">")).upperBound
        XCTAssertTrue(html[json...].contains(value), "the whole value is in the page's data")
        XCTAssertTrue(svg.contains(">\(String(value.prefix(15)))…</text>"), "the lane keeps the short form")
    }
}

/// Names the calling thread as a user's code would, without Foundation's race on Linux: there,
/// `Thread.current.name = …` inside a new `Thread`'s block sometimes reaches another `Thread`
/// object (2–6 of 300 new threads on a loaded machine kept no name), so the name goes straight
/// to the kernel, which is what `pthread_setname_np` sets and the inspector reads.
private func nameCurrentThread(_ name: String) {
    #if os(Linux)
    try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    #else
    Thread.current.name = name
    #endif
}
#endif
