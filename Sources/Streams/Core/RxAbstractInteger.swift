/// The element type of `range`, `interval` and `timer`: any fixed-width integer (as in RxSwift).
public typealias RxAbstractInteger = FixedWidthInteger
