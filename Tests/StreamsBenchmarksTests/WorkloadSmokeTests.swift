import Streams
import StreamsBenchmarks
import StreamsTest
import XCTest

/// Runs every benchmark workload once at a tiny scale so the benchmark never rots: each checksum
/// must match its plain-loop model and every resource must be released. No timing assertions.
final class WorkloadSmokeTests: XCTestCase {
    /// 10M-event workloads run 5,000 events, 1M ones 500, 100k ones 50 (× 100 where fanned out),
    /// 20k ones 10.
    private let scale = 0.0005

    /// Workloads whose deliveries happen on a dispatch queue (resources freed asynchronously).
    private let dispatchWorkloads: Set<String> = [
        "observeOn_serial_queue", "observeOn_concurrent_queue", "chat_window_2k_inspector_off", "chat_window_2k_inspector_on",
        "chat_window_10k_inspector_off", "chat_window_10k_inspector_on",
    ]

    /// Checksums of the workloads without a plain-loop model (reported "unchecked" by
    /// streams-bench), so the smoke run still checks them.
    ///
    /// `throttle_virtual_time`: in each group of 4 events (1 ms apart, then a 20 ms gap) the
    /// first passes at once (the last emission was ≥ 10 ms before) and the 4th is emitted when
    /// the 10 ms window closes, during the gap; a trailing partial group's latest element is
    /// still pending when the subscription is disposed.
    private let testModels: [String: (Int) -> Int] = [
        "throttle_virtual_time": { n in
            var sum = 0
            for i in 0..<n where i & 3 == 0 || i & 3 == 3 { sum &+= i }
            return sum
        }
    ]

    /// The checksum a correct run of `workload` at size `size` produces: its model's, else the
    /// test's (failing when there is neither).
    private func expectedChecksum(_ workload: Workload, size: Int) -> Int? {
        if let expected = workload.expected(size: size) { return expected }
        guard let model = testModels[workload.name] else {
            XCTFail("\(workload.name) has no checksum model, neither in the workload nor in testModels")
            return nil
        }
        return model(size)
    }

    func testWorkloads_everyChecksumMatchesAndNothingLeaks() {
        let workloads = allWorkloads()
        XCTAssertGreaterThanOrEqual(workloads.count, 26)
        for workload in workloads {
            let size = workload.size(at: scale)
            let expected = expectedChecksum(workload, size: size)
            let body = {
                let checksum = workload.run(size: size)
                XCTAssertEqual(checksum, expected, "\(workload.name) at size \(size)")
            }
            if dispatchWorkloads.contains(workload.name) {
                XCTAssertNoLeaksEventually("\(workload.name) leaked", body)
            } else {
                XCTAssertNoLeaks("\(workload.name) leaked", body)
            }
        }
    }

    func testWorkloads_sizeOneStillMatches() {
        for workload in allWorkloads() {
            let expected = expectedChecksum(workload, size: 1)
            let body = {
                XCTAssertEqual(workload.run(size: 1), expected, workload.name)
            }
            if dispatchWorkloads.contains(workload.name) {
                XCTAssertNoLeaksEventually("\(workload.name) leaked", body)
            } else {
                XCTAssertNoLeaks("\(workload.name) leaked", body)
            }
        }
    }

    func testWorkloads_namesAreUniqueAndCoverIssues6And12And31And37And39() {
        let names = allWorkloads().map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let issue6 = [
            "direct_closure", "publish_subject_pump", "publish_subject_pump_100subs", "map_filter_pump",
            "range_map_filter", "scan_pump", "combineLatest_pump", "withLatestFrom_pump", "flatMap_pump",
            "flatMapLatest_pump", "subscribe_dispose_churn", "behavior_relay_accept",
            "observeOn_serial_queue", "merge_100",
        ]
        let issue12 = [
            "share_replay1_10subs", "deep_chain_20maps", "observeOn_concurrent_queue", "from_array_toArray",
            "replay100_subscribe_churn", "combineLatest8_pump", "debounce_virtual_time", "throttle_virtual_time",
            "merge4_threads", "single_just_map_churn", "many_subs_dispose_lifo", "many_subs_disposebag",
        ]
        let issue31 = [
            "localfirst_write_offline_tree1k", "localfirst_write_offline_tree100k", "localfirst_write_offline_100observers",
            "localfirst_write_online_tree1k", "localfirst_write_online_tree100k", "localfirst_drain_queue",
        ]
        let issue37 = ["rules_read_depth10", "rules_write_depth10", "rules_regex_long_string"]
        #if Inspector
        let issue39 = [
            "map_filter_pump_inspector_off", "map_filter_pump_inspector_on", "chat_window_2k_inspector_off", "chat_window_2k_inspector_on",
            "chat_window_10k_inspector_off", "chat_window_10k_inspector_on",
        ]
        #else
        let issue39: [String] = []
        #endif
        XCTAssertEqual(names, issue6 + issue12 + issue31 + issue37 + issue39)
        let unchecked = allWorkloads().filter { !$0.isChecked }.map(\.name)
        XCTAssertEqual(unchecked, ["throttle_virtual_time"])
    }

    func testWorkloads_manySubscribersAtALargerSize() {
        // The many_subs_* workloads at 10 subscribers say little about a large observer list.
        for workload in allWorkloads() where workload.name.hasPrefix("many_subs_") {
            XCTAssertNoLeaks("\(workload.name) leaked") {
                XCTAssertEqual(workload.run(size: 2_000), workload.expected(size: 2_000), workload.name)
            }
        }
    }

    func testMeasure_reportsSizeChecksumAndWhetherChecked() throws {
        let workloads = Dictionary(uniqueKeysWithValues: allWorkloads().map { ($0.name, $0) })
        let checked = try XCTUnwrap(workloads["debounce_virtual_time"])
        let result = try XCTUnwrap(StreamsBenchmarks.measure(checked, size: 40, runs: 3, warmupSize: 4))
        XCTAssertEqual(result.size, 40)
        XCTAssertEqual(result.events, 40)
        XCTAssertEqual(result.times.count, 3)
        XCTAssertEqual(result.checksum, checked.expected(size: 40))
        XCTAssertTrue(result.checked)
        XCTAssertGreaterThan(result.peakResidentMB, 0)
        let unchecked = try XCTUnwrap(workloads["throttle_virtual_time"])
        let uncheckedResult = try XCTUnwrap(StreamsBenchmarks.measure(unchecked, size: 40, runs: 2))
        XCTAssertFalse(uncheckedResult.checked)
        XCTAssertEqual(uncheckedResult.checksum, testModels["throttle_virtual_time"]?(40))
    }

    func testBecomeMultiThreaded_leavesTheProcessMultiThreaded() {
        XCTAssertTrue(becomeMultiThreaded())
        #if os(Linux)
        XCTAssertEqual(processIsSingleThreaded(), false)
        #endif
    }

    func testWorkloads_sizeAndEventsFollowScale() {
        for workload in allWorkloads() {
            XCTAssertEqual(workload.size(at: 1), workload.baseSize, workload.name)
            XCTAssertEqual(workload.size(at: 1e-12), 1, workload.name)
            XCTAssertGreaterThanOrEqual(workload.events(at: scale), workload.size(at: scale), workload.name)
        }
    }
}
