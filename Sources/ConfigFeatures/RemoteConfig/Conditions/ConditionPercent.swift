/// The percentile `percent` conditions compare: Firebase's server-template mapping.
///
/// Firebase does not document how client templates hash an installation into a percentile; we
/// use the mapping `firebase-admin` uses for server templates: SHA-256 of `"<seed>.<id>"` (of
/// `<id>` alone when the seed is empty), read as a big-endian integer, modulo 100,000,000 (a
/// micro-percent, 0…99,999,999).
enum ConditionPercent {
    static func microPercentile(seed: String, id: String) -> Int64 {
        let text = seed.isEmpty ? id : "\(seed).\(id)"
        var remainder: UInt64 = 0
        for byte in SHA256.digest(text) {
            remainder = (remainder * 256 + UInt64(byte)) % 100_000_000
        }
        return Int64(remainder)
    }
}
