import Streams
import StreamsTest

/// One marble diagram of the documentation, as something that can be run.
///
/// The diagram's inputs are read from the operator's `///` comment itself (the lines
/// `///     label: marbles` just above `declaration` in `file`); `build` is the expression the
/// diagram shows. Running it on a `TestScheduler` gives the real output, which must equal the
/// comment's output line (``DiagramCheck``) and is what the SVG in the docs draws
/// (``DiagramRenderer``). So a diagram in the docs cannot disagree with the code.
public struct DiagramSpec: Sendable {
    /// How an input lane becomes a test observable.
    public enum Input: Sendable {
        /// A hot observable: frame 0 of its marbles is the subscription time, 200.
        case hot
        /// A cold observable: its marbles are relative to each subscription.
        case cold
    }

    /// The diagram's name: its SVG is `marble-<name>.svg` in the Streams catalog's Resources.
    public var name: String
    /// The source file holding the `///` diagram, relative to the package root.
    public var file: String
    /// Text of the declaration line right after the doc comment, e.g. `"func map<"`.
    public var declaration: String
    /// How each input lane (every labelled line but the outputs) is created, in order.
    public var inputs: [Input]
    /// Which output line this spec checks, when the comment has several (`0` is the first).
    public var outputIndex: Int
    /// The expression, written out, drawn as the picture's caption.
    public var caption: String
    /// The expression the diagram shows, given the inputs and the scheduler.
    public var build: @Sendable (_ inputs: [Observable<String>], _ scheduler: TestScheduler) -> Observable<String>

    /// A diagram spec; see the properties.
    public init(
        _ name: String,
        file: String,
        declaration: String,
        inputs: [Input] = [.hot],
        outputIndex: Int = 0,
        caption: String,
        build: @escaping @Sendable (_ inputs: [Observable<String>], _ scheduler: TestScheduler) -> Observable<String>
    ) {
        self.name = name
        self.file = file
        self.declaration = declaration
        self.inputs = inputs
        self.outputIndex = outputIndex
        self.caption = caption
        self.build = build
    }
}
