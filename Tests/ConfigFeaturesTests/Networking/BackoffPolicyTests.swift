import Foundation
import XCTest
@testable import ConfigFeatures

final class BackoffPolicyTests: XCTestCase {
    func testBackoffPolicy_defaultsDoubleFromOneSecondUpToSixtySeconds() {
        let policy = BackoffPolicy.default
        XCTAssertEqual((1...8).map { policy.baseDelay(forAttempt: $0) }, [1, 2, 4, 8, 16, 32, 60, 60])
        XCTAssertEqual(policy.baseDelay(forAttempt: 10_000), 60)
        XCTAssertEqual(policy.baseDelay(forAttempt: 0), 1, "attempts below 1 count as the first")
        XCTAssertNil(policy.maximumAttempts)
    }

    func testBackoffPolicy_jitterSpreadsAroundTheBaseDelay() {
        let policy = BackoffPolicy(initialDelay: 10, maximumDelay: 100, jitter: 0.5)
        XCTAssertEqual(policy.delay(forAttempt: 1, random: 0), 5)
        XCTAssertEqual(policy.delay(forAttempt: 1, random: 0.5), 10)
        XCTAssertEqual(policy.delay(forAttempt: 2, random: 0.75), 25)
        XCTAssertEqual(policy.delay(forAttempt: 1, random: 1), 15, accuracy: 1e-9, "just below 1")
        XCTAssertEqual(policy.delay(forAttempt: 1, random: 1), policy.delay(forAttempt: 1, random: 7), "clamped below 1")
        XCTAssertEqual(policy.delay(forAttempt: 1, random: -3), 5, "clamped at 0")
        XCTAssertEqual(policy.delay(forAttempt: 1, random: .nan), 10, "NaN counts as 0.5")
        XCTAssertEqual(BackoffPolicy(initialDelay: 10, jitter: 0).delay(forAttempt: 1, random: 0.9), 10)
        XCTAssertEqual(BackoffPolicy(initialDelay: 10, jitter: 1).delay(forAttempt: 1, random: 0), 0)
        XCTAssertEqual(BackoffPolicy(initialDelay: 10, jitter: 4).delay(forAttempt: 1, random: 0), 0, "jitter clamped to 1")
    }

    func testBackoffPolicy_remoteConfigsPoliciesFollowFirebase() {
        let throttling = RemoteConfigBackoff.fetchThrottling
        XCTAssertEqual((1...9).map { throttling.delay(forAttempt: $0, random: 0.5) }, [120, 240, 480, 960, 1_920, 3_840, 7_680, 14_400, 14_400])
        XCTAssertEqual(throttling.delay(forAttempt: 1, random: 0), 60)
        XCTAssertEqual(throttling.delay(forAttempt: 1, random: 1), 180, accuracy: 1e-9)
        XCTAssertNil(throttling.maximumAttempts)

        let reconnection = RemoteConfigBackoff.realtimeReconnection
        XCTAssertEqual((1...8).map { reconnection.baseDelay(forAttempt: $0) }, [1, 2, 4, 8, 16, 32, 64, 64])
        XCTAssertTrue(reconnection.allowsAttempt(7))
        XCTAssertFalse(reconnection.allowsAttempt(8))

        let fetchRetry = RemoteConfigBackoff.realtimeFetchRetry
        XCTAssertEqual([1, 2].map { fetchRetry.delay(forAttempt: $0, random: 0.5) }, [1, 2])
        XCTAssertTrue(fetchRetry.allowsAttempt(3))
        XCTAssertFalse(fetchRetry.allowsAttempt(4))
    }

    func testBackoffPolicy_degenerateValuesStayFinite() {
        XCTAssertEqual(BackoffPolicy(initialDelay: -5).baseDelay(forAttempt: 3), 0)
        XCTAssertEqual(BackoffPolicy(initialDelay: .nan).baseDelay(forAttempt: 3), 0)
        XCTAssertEqual(BackoffPolicy(initialDelay: 3, multiplier: 0.5).baseDelay(forAttempt: 5), 3, "a multiplier below 1 counts as 1")
        XCTAssertEqual(BackoffPolicy(initialDelay: 3, multiplier: .infinity).baseDelay(forAttempt: 5), 3)
        XCTAssertEqual(BackoffPolicy(initialDelay: 90, maximumDelay: 60).baseDelay(forAttempt: 1), 60, "the cap applies to the first delay too")
        XCTAssertEqual(BackoffPolicy(initialDelay: 1, multiplier: 1e300, maximumDelay: .infinity).baseDelay(forAttempt: 4), .infinity)
    }

    func testBackoffPolicy_allowsAttemptsUpToTheMaximum() {
        let policy = BackoffPolicy(maximumAttempts: 2)
        XCTAssertTrue(policy.allowsAttempt(1))
        XCTAssertTrue(policy.allowsAttempt(2))
        XCTAssertFalse(policy.allowsAttempt(3))
        XCTAssertTrue(BackoffPolicy.default.allowsAttempt(1_000_000))
    }

    func testReconnectBackoff_growsAndResetsOnSuccess() {
        var backoff = ReconnectBackoff(policy: BackoffPolicy(initialDelay: 1, maximumDelay: 8))
        XCTAssertEqual((1...5).map { _ in backoff.nextDelay(random: 0.5) }, [1, 2, 4, 8, 8])
        XCTAssertEqual(backoff.consecutiveFailures, 5)
        backoff.reset()
        XCTAssertEqual(backoff.consecutiveFailures, 0)
        XCTAssertEqual(backoff.nextDelay(random: 0.5), 1)
    }

    func testReconnectBackoff_stopsAfterTheMaximumAttempts() {
        var backoff = ReconnectBackoff(policy: BackoffPolicy(maximumAttempts: 2))
        XCTAssertFalse(backoff.isExhausted)
        XCTAssertEqual(backoff.nextDelay(random: 0.5), 1)
        XCTAssertEqual(backoff.nextDelay(random: 0.5), 2)
        XCTAssertTrue(backoff.isExhausted)
        XCTAssertNil(backoff.nextDelay(random: 0.5))
        backoff.reset()
        XCTAssertFalse(backoff.isExhausted)
        XCTAssertEqual(backoff.nextDelay(random: 0.5), 1)
    }

    func testReconnectBackoff_honoursTheServersMinimum() {
        var backoff = ReconnectBackoff(policy: .default)
        XCTAssertEqual(backoff.nextDelay(random: 0.5, minimum: 30), 30)
        XCTAssertEqual(backoff.nextDelay(random: 0.5, minimum: 0.5), 2)
        XCTAssertEqual(backoff.nextDelay(random: 0.5, minimum: .infinity), 4, "a non-finite minimum is ignored")
    }

    func testReconnectBackoff_drawsFromAnInjectedRandomSource() {
        var draws = [0.0, 0.999, 0.5]
        var backoff = ReconnectBackoff(policy: BackoffPolicy(initialDelay: 2, jitter: 0.5))
        let delays = (0..<3).map { _ in backoff.nextDelay(using: { draws.removeFirst() }) }
        XCTAssertEqual(delays[0], 1)
        XCTAssertEqual(delays[1]!, 4 * 1.499, accuracy: 1e-9)
        XCTAssertEqual(delays[2], 8)
        XCTAssertTrue(draws.isEmpty)
    }

    func testBackoffPolicy_description() {
        XCTAssertEqual(
            BackoffPolicy(maximumAttempts: 3).description,
            "BackoffPolicy(initialDelay: 1.0, multiplier: 2.0, maximumDelay: 60.0, jitter: 0.5, maximumAttempts: 3)")
    }
}
