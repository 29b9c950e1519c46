import Foundation

/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput`, with the few ways the targets read
/// them.
///
/// Several targets take their first byte as a control byte (which status code to answer, how
/// to split a stream) and the rest as the payload: `control` and `payload` give both halves,
/// so that an empty input is still a valid input.
public struct FuzzInput {
    /// All the bytes.
    public let bytes: [UInt8]

    /// Copies `size` bytes from `data` (libFuzzer reuses its buffer after the call).
    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The bytes as text, invalid UTF-8 replaced by U+FFFD (as every parser here decodes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The first byte (0 for an empty input).
    public var control: UInt8 { bytes.first ?? 0 }

    /// Everything after the first byte.
    public var payload: [UInt8] { Array(bytes.dropFirst()) }

    /// The bytes cut at every zero byte (`maxParts` parts at most: the last one keeps the
    /// rest), for targets that take several strings.
    public func parts(_ maxParts: Int) -> [[UInt8]] {
        bytes.split(separator: 0, maxSplits: max(maxParts - 1, 0), omittingEmptySubsequences: false).map(Array.init)
    }

    /// `bytes` cut into pieces whose lengths cycle through `sizes` (each at least 1), for
    /// feeding an incremental parser in chunks.
    public static func chunks(of bytes: [UInt8], sizes: [Int]) -> [ArraySlice<UInt8>] {
        let sizes = sizes.map { max($0, 1) }
        guard !sizes.isEmpty else { return [bytes[...]] }
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = min(start + sizes[index % sizes.count], bytes.count)
            result.append(bytes[start..<end])
            start = end
            index += 1
        }
        return result
    }
}

/// Stops the fuzzer with `message` when `condition` is false: a broken invariant is reported by
/// libFuzzer as a crash, with the input that broke it.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("invariant broken: \(message())", file: file, line: line)
    }
}
