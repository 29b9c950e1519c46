/// The `select` closures of the fixed arities of `combineLatest` (2–8 sources).
///
/// Each reads the latest values with their element types as plain generic parameters of the
/// adapter, bound once when the operator is built. Written inline in `combineLatest`, the same
/// closure names `O1.Element` and so looks up an associated-type witness for every source on
/// every combination (see Guides/Performance.md).
enum CombineLatestSelector {
    /// Calls `selector` with the latest values of 2 sources.
    static func make<E1, E2, Result>(_ selector: @escaping (E1, E2) throws -> Result) -> (CombineLatestValues) throws -> Result {
        { values in try selector(values[0, as: E1.self], values[1, as: E2.self]) }
    }

    /// Calls `selector` with the latest values of 3 sources.
    static func make<E1, E2, E3, Result>(_ selector: @escaping (E1, E2, E3) throws -> Result) -> (CombineLatestValues) throws -> Result {
        { values in try selector(values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self]) }
    }

    /// Calls `selector` with the latest values of 4 sources.
    static func make<E1, E2, E3, E4, Result>(_ selector: @escaping (E1, E2, E3, E4) throws -> Result) -> (CombineLatestValues) throws -> Result {
        { values in try selector(values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self], values[3, as: E4.self]) }
    }

    /// Calls `selector` with the latest values of 5 sources.
    static func make<E1, E2, E3, E4, E5, Result>(_ selector: @escaping (E1, E2, E3, E4, E5) throws -> Result) -> (CombineLatestValues) throws -> Result {
        { values in try selector(values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self], values[3, as: E4.self], values[4, as: E5.self]) }
    }

    /// Calls `selector` with the latest values of 6 sources.
    static func make<E1, E2, E3, E4, E5, E6, Result>(_ selector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Result) -> (CombineLatestValues) throws -> Result
    {
        { values in
            try selector(
                values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self], values[3, as: E4.self], values[4, as: E5.self], values[5, as: E6.self])
        }
    }

    /// Calls `selector` with the latest values of 7 sources.
    static func make<E1, E2, E3, E4, E5, E6, E7, Result>(_ selector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Result) -> (CombineLatestValues) throws ->
        Result
    {
        { values in
            try selector(
                values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self], values[3, as: E4.self], values[4, as: E5.self], values[5, as: E6.self],
                values[6, as: E7.self])
        }
    }

    /// Calls `selector` with the latest values of 8 sources.
    static func make<E1, E2, E3, E4, E5, E6, E7, E8, Result>(_ selector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Result) -> (CombineLatestValues)
        throws -> Result
    {
        { values in
            try selector(
                values[0, as: E1.self], values[1, as: E2.self], values[2, as: E3.self], values[3, as: E4.self], values[4, as: E5.self], values[5, as: E6.self],
                values[6, as: E7.self], values[7, as: E8.self])
        }
    }
}
