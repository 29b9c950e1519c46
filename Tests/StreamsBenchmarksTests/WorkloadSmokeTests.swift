import Streams
import StreamsBenchmarks
import StreamsTest
import XCTest

/// Runs every benchmark workload once at a tiny scale so the benchmark never rots: each checksum
/// must match its plain-loop model and every resource must be released. No timing assertions.
final class WorkloadSmokeTests: XCTestCase {
    /// 10M-event workloads run 5,000 events, 1M ones 500, 100k ones 50 (× 100 where fanned out).
    private let scale = 0.0005

    /// Workloads whose deliveries happen on a dispatch queue (resources freed asynchronously).
    private let dispatchWorkloads: Set<String> = ["observeOn_serial_queue"]

    func testWorkloads_everyChecksumMatchesAndNothingLeaks() {
        let workloads = allWorkloads()
        XCTAssertGreaterThanOrEqual(workloads.count, 14)
        for workload in workloads {
            let expected = workload.expected(at: scale)
            let body = {
                let checksum = workload.run(at: self.scale)
                XCTAssertEqual(checksum, expected, "\(workload.name) at scale \(self.scale)")
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
            let body = {
                XCTAssertEqual(workload.run(size: 1), workload.expected(size: 1), workload.name)
            }
            if dispatchWorkloads.contains(workload.name) {
                XCTAssertNoLeaksEventually("\(workload.name) leaked", body)
            } else {
                XCTAssertNoLeaks("\(workload.name) leaked", body)
            }
        }
    }

    func testWorkloads_namesAreUniqueAndCoverIssue6() {
        let names = allWorkloads().map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let issue6 = [
            "direct_closure", "publish_subject_pump", "publish_subject_pump_100subs", "map_filter_pump",
            "range_map_filter", "scan_pump", "combineLatest_pump", "withLatestFrom_pump", "flatMap_pump",
            "flatMapLatest_pump", "subscribe_dispose_churn", "behavior_relay_accept",
            "observeOn_serial_queue", "merge_100",
        ]
        XCTAssertEqual(names, issue6)
    }

    func testWorkloads_sizeAndEventsFollowScale() {
        for workload in allWorkloads() {
            XCTAssertEqual(workload.size(at: 1), workload.baseSize, workload.name)
            XCTAssertEqual(workload.size(at: 1e-12), 1, workload.name)
            XCTAssertGreaterThanOrEqual(workload.events(at: scale), workload.size(at: scale), workload.name)
        }
    }
}
