import XCTest
import Streams
import StreamsTest

/// `Driver.values` / `Signal.values`: main-actor `AsyncStream`s. The drivers deliver on
/// `MainScheduler.instance`, which runs inline on the main thread, where these tests run.
final class SharedSequenceValuesTests: XCTestCase {
    @MainActor
    func testDriverValues_yieldsElementsThenFinishes() async {
        var got: [Int] = []
        for await value in Driver.of(1, 2, 3).values { got.append(value) }
        XCTAssertEqual(got, [1, 2, 3])
    }

    @MainActor
    func testDriverValues_leavingTheLoopDisposesTheSubscription() async {
        let baseline = Resources.total
        let disposed = ThreadSafeTestBox(false)
        @MainActor func iterate() async -> [Int] {
            let relay = BehaviorRelay(value: 1)
            let driver = relay.asDriver().do(onDispose: { disposed.mutate { $0 = true } })
            var got: [Int] = []
            for await value in driver.values {
                got.append(value)
                if value == 1 { relay.accept(2) } else { break }
            }
            return got
        }
        let got = await iterate()
        XCTAssertEqual(got, [1, 2])
        XCTAssertTrue(disposed.value)
        XCTAssertEqual(Resources.total, baseline)
    }

    @MainActor
    func testSignalValues_finishWhenTheSignalCompletes() async {
        var got: [String] = []
        for await value in Signal.from(["a", "b"]).values { got.append(value) }
        XCTAssertEqual(got, ["a", "b"])
    }
}
