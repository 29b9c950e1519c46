/// Firebase's ordering of Realtime Database keys and values, as its SDKs and server sort the
/// children of a query.
///
/// - Keys: a key that is a 32-bit integer (an optional `-`, decimal digits, at most 10 of them
///   after leading zeros, within `Int32`'s range) sorts before every other key, numerically
///   (equal numbers: the shorter key first); the other keys sort by their UTF-16 code units.
/// - Values: `null` < `false` < `true` < numbers (ascending) < strings (by UTF-16 code units) <
///   objects and arrays (all equal to each other). Ties are broken by key.
///
/// See <doc:RealtimeDatabaseGuide#Ordering>.
public enum RealtimeDatabaseOrdering {
    /// Compares two keys in Firebase's key order: negative, zero or positive.
    public static func compareKeys(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        switch (int32Value(of: a), int32Value(of: b)) {
        case let (x?, y?):
            if x != y { return x < y ? -1 : 1 }
            let lengths = a.utf16.count - b.utf16.count
            return lengths != 0 ? lengths : compareUTF16(a, b)
        case (_?, nil): return -1
        case (nil, _?): return 1
        case (nil, nil): return compareUTF16(a, b)
        }
    }

    /// Compares two values in Firebase's value order (without the key tie-break): negative,
    /// zero or positive. Empty objects and arrays count as `null` (absent), as in the tree.
    public static func compareValues(_ a: JSONValue, _ b: JSONValue) -> Int {
        let (rankA, rankB) = (rank(of: a), rank(of: b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case let (.bool(x), .bool(y)):
            return x == y ? 0 : (x ? 1 : -1)
        case let (.number(x), .number(y)):
            return x == y ? 0 : (x < y ? -1 : 1)
        case let (.string(x), .string(y)):
            return x == y ? 0 : compareUTF16(x, y)
        default:
            return 0  // null and null, or two non-empty containers
        }
    }

    /// The key as Firebase reads a 32-bit integer key, or `nil`.
    static func int32Value(of key: String) -> Int64? {
        var digits = Substring(key).utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let significant = digits.drop(while: { $0 == 0x30 })
        // "0*\d{1,10}": any leading zeros, then one to ten digits.
        guard significant.count <= 10 else { return nil }
        var value: Int64 = 0
        for digit in significant { value = value * 10 + Int64(digit - 0x30) }
        if negative { value = -value }
        return (Int64(Int32.min)...Int64(Int32.max)).contains(value) ? value : nil
    }

    /// By UTF-16 code units, as JavaScript compares strings (and the server sorts them).
    static func compareUTF16(_ a: String, _ b: String) -> Int {
        var x = a.utf16.makeIterator()
        var y = b.utf16.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (p?, q?) where p != q: return p < q ? -1 : 1
            default: continue
            }
        }
    }

    private static func rank(of value: JSONValue) -> Int {
        switch value {
        case .null: return 0
        case .bool: return 1
        case .number: return 2
        case .string: return 3
        case .array(let elements): return elements.isEmpty ? 0 : 4
        case .object(let members): return members.isEmpty ? 0 : 4
        }
    }
}
