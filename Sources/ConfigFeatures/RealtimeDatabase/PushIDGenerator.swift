import Foundation
import Streams

/// Generates Firebase push IDs (the keys of `childByAutoId()` / `push(_:at:)`).
///
/// A push ID is 20 characters from the alphabet
/// `-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz` (which is in ASCII order):
/// 8 characters encode the time in milliseconds since 1970, most significant first, then 12
/// random characters. Keys from one generator are strictly increasing, so they sort (as
/// strings, and as Firebase orders keys) in creation order:
///
/// - Within the same millisecond the random part of the previous key is incremented by one
///   (as Firebase's clients do), instead of drawing a new one.
/// - If the clock goes backwards (a virtual clock rewound, a wall clock adjusted), the previous
///   key's time is reused and incremented the same way, so order is kept (Firebase does not).
///
/// The time comes from the caller; the databases pass their scheduler's `now`, so on a
/// `TestScheduler` keys depend on the virtual clock. Thread-safe. See <doc:RealtimeDatabaseGuide>.
public final class PushIDGenerator: @unchecked Sendable {
    // Safety: the only mutable state (the previous key and the random generator) lives in
    // `state`, whose lock guards every access; nothing is called while it is held.
    private struct State {
        var lastTime: Int64 = -1
        var lastRandom: [Int] = []
        var random: any RandomNumberGenerator
    }

    /// The push ID alphabet, in ascending ASCII order.
    public static let alphabet = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

    private static let characters = Array(alphabet)
    private static let timeLength = 8
    private static let randomLength = 12
    private static let maximumTime = Int64(1) << 48 - 1  // 64^8 - 1

    private let state: LockedState<State>

    /// Creates a generator using the system's random numbers.
    public convenience init() {
        self.init(randomNumberGenerator: SystemRandomNumberGenerator())
    }

    /// Creates a generator drawing its random parts from `randomNumberGenerator` (for reproducible tests).
    public init<Generator: RandomNumberGenerator & Sendable>(randomNumberGenerator: Generator) {
        state = LockedState(State(random: randomNumberGenerator))
    }

    /// Returns a new key, later in order than every key this generator returned before.
    ///
    /// - Parameter date: The time encoded in the key (a database passes its scheduler's `now`).
    public func next(at date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let requested = milliseconds.isFinite ? Int64(max(0, min(milliseconds, Double(Self.maximumTime)))) : 0
        return state.withLock { state in
            var time = requested
            if time <= state.lastTime, Self.increment(&state.lastRandom) {
                time = state.lastTime
            } else {
                time = max(time, state.lastTime &+ 1)
                state.lastRandom = (0..<Self.randomLength).map { _ in Int(state.random.next() % 64) }
            }
            state.lastTime = time
            var characters: [Character] = []
            characters.reserveCapacity(Self.timeLength + Self.randomLength)
            var remaining = time
            for _ in 0..<Self.timeLength {
                characters.append(Self.characters[Int(remaining % 64)])
                remaining /= 64
            }
            characters.reverse()
            characters += state.lastRandom.map { Self.characters[$0] }
            return String(characters)
        }
    }

    /// The time encoded in `pushID`, or `nil` if it is not a push ID.
    public static func timestamp(ofPushID pushID: String) -> Date? {
        let characters = Array(pushID)
        guard characters.count == timeLength + randomLength else { return nil }
        var milliseconds: Int64 = 0
        for character in characters {
            guard alphabet.contains(character) else { return nil }
        }
        for character in characters.prefix(timeLength) {
            guard let digit = Self.characters.firstIndex(of: character) else { return nil }
            milliseconds = milliseconds * 64 + Int64(digit)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Adds one to the base-64 number `digits`; returns `false` (leaving it unchanged) on
    /// overflow or when there is no previous key.
    private static func increment(_ digits: inout [Int]) -> Bool {
        guard !digits.isEmpty else { return false }
        var result = digits
        var index = result.count - 1
        while index >= 0 {
            if result[index] < 63 {
                result[index] += 1
                digits = result
                return true
            }
            result[index] = 0
            index -= 1
        }
        return false
    }
}
