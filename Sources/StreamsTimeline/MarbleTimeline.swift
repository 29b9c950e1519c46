/// A marble picture's content: one lane per stream, each a list of events on a shared time line.
///
/// The package's renderers draw it: `MarbleTimelineSVG` for StreamsTest's marble pictures and the
/// stream inspector's pages. Times are plain numbers (virtual ticks in tests, seconds in the
/// inspector); `timeLabel` turns one into the text under the axis.
package struct MarbleTimeline: Sendable {
    /// One stream's events and subscriptions.
    package struct Lane: Sendable {
        /// The lane's name, drawn at its left.
        package var title: String
        /// The events, in the order they happened (times never decrease).
        package var marks: [Mark]
        /// Subscription spans, drawn as bars under the lane.
        package var spans: [Span]

        package init(title: String, marks: [Mark] = [], spans: [Span] = []) {
            self.title = title
            self.marks = marks
            self.spans = spans
        }
    }

    /// One event on a lane.
    package struct Mark: Sendable, Equatable {
        /// What happened.
        package enum Kind: Sendable, Equatable {
            /// An element, drawn as a marble with its label.
            case next(String)
            /// An error, drawn as a cross with its description.
            case error(String)
            /// Completion, drawn as a bar.
            case completed
        }

        /// When it happened.
        package var time: Double
        /// What happened.
        package var kind: Kind
        /// Whether to draw it as the first difference of a failed comparison.
        package var isHighlighted: Bool
        /// The whole text shown on hover (an SVG `<title>`), or `nil`.
        package var detail: String?
        /// An index the page's script resolves (the inspector's event index), drawn as
        /// `data-event`; such a mark is focusable and acts as a button.
        package var reference: Int?

        package init(time: Double, kind: Kind, isHighlighted: Bool = false, detail: String? = nil, reference: Int? = nil) {
            self.time = time
            self.kind = kind
            self.isHighlighted = isHighlighted
            self.detail = detail
            self.reference = reference
        }
    }

    /// A subscription's lifetime; `end` is `nil` while it is still subscribed.
    package struct Span: Sendable, Equatable {
        /// When the subscription was made.
        package var start: Double
        /// When it was disposed, or `nil`.
        package var end: Double?

        package init(start: Double, end: Double?) {
            self.start = start
            self.end = end
        }
    }

    /// The lanes, top to bottom.
    package var lanes: [Lane]
    /// A caption drawn above the lanes, or `nil`.
    package var caption: String?
    /// The text written under the axis for a time.
    package var timeLabel: @Sendable (Double) -> String

    package init(lanes: [Lane], caption: String? = nil, timeLabel: @escaping @Sendable (Double) -> String = MarbleTimeline.integerLabel) {
        self.lanes = lanes
        self.caption = caption
        self.timeLabel = timeLabel
    }

    /// Writes a time as a whole number (virtual ticks).
    package static let integerLabel: @Sendable (Double) -> String = { time in
        time.rounded() == time && abs(time) < 1e15 ? String(Int64(time)) : String(time)
    }
}
