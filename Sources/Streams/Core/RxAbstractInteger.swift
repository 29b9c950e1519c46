/// The element type of ``ObservableType/range(start:count:scheduler:)``, ``ObservableType/interval(_:scheduler:)`` and ``ObservableType/timer(_:period:scheduler:)``: any fixed-width integer (as in RxSwift).
public typealias RxAbstractInteger = FixedWidthInteger
