// Fuzzes `JSONValue(parsing:)` (public), the JSON reader of Remote Config values, Realtime
// Database bodies and stream events, and what is done with a parsed value: serialization
// (`serialized`, `data`), `Codable` round trips, subscripts and hashing. Also reads the bytes
// as a Remote Config value (`RemoteConfigValue`: `numberValue`, `boolValue`, `jsonValue`).
//
// Input: the JSON text. Check: a parsed value serializes (plain and pretty) to text that
// parses back to an equal value.
import ConfigFeatures
import Foundation
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)

    let configValue = RemoteConfigValue(data: input.data, source: .remote)
    _ = configValue.numberValue
    _ = configValue.boolValue
    _ = configValue.stringValue
    _ = configValue.jsonValue

    guard let value = try? JSONValue(parsing: input.data) else { return 0 }
    let plain = value.serialized()
    let pretty = value.serialized(prettyPrinted: true)
    require((try? JSONValue(parsing: plain)) == value, "serialized text does not parse back: \(plain)")
    require((try? JSONValue(parsing: pretty)) == value, "pretty text does not parse back: \(pretty)")
    require((try? value.decoded(as: JSONValue.self)) == value, "decoded(as:) differs")
    // Through Foundation's decoder (`JSONValue.init(from:)`), as inside a user's Codable type.
    let wrapped = Data(("[" + plain + "]").utf8)
    require((try? JSONDecoder().decode([JSONValue].self, from: wrapped)) == [value], "Codable round trip differs")
    var hasher = Hasher()
    value.hash(into: &hasher)
    _ = hasher.finalize()
    _ = value["a"]
    _ = value[0]
    _ = value.isNull
    return 0
}
