import Foundation

/// A decoder that turns `Data` into a `Decodable` value (`JSONDecoder`, `PropertyListDecoder`).
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each `Data` element into `type` with `decoder`.
    ///
    ///     source: --d1--d2--|
    ///     output: --v1--v2--|         (decoder: JSONDecoder())
    ///
    /// A decoding error terminates the sequence with that error.
    /// - Parameters:
    ///   - type: The `Decodable` type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The sequence of decoded values.
    /// - Note: Delivers on the source's scheduler. See <doc:Transforming>.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
