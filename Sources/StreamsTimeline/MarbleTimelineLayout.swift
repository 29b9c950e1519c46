/// Where each part of a `MarbleTimeline` is drawn.
///
/// Every distinct time gets one column, shared by all lanes, so events at the same time line up
/// across lanes. A column is as wide as the widest cluster of marks any lane has at that time
/// (several events at one time sit side by side) and as its time label, so labels never overlap.
/// Columns are spaced in proportion to time, but a gap never exceeds `maximumGap`: a long quiet
/// run is compressed and drawn with a break on the axis. Positions grow strictly with time.
package struct MarbleTimelineLayout: Sendable {
    /// Sizes, in SVG user units (pixels).
    package enum Metrics {
        static let characterWidth = 7.2  // 12 px monospace
        static let marbleRadius = 12.0
        static let completionWidth = 12.0
        static let markSpacing = 6.0
        static let columnPadding = 10.0
        static let preferredGap = 36.0
        static let maximumGap = 96.0
        static let laneHeight = 64.0
        static let axisOffset = 24.0
        static let margin = 16.0
        static let captionHeight = 28.0
        static let timeAxisHeight = 28.0
        /// Labels longer than this many characters are cut, ending in "…".
        package static let maximumLabelLength = 16
        static let maximumTitleLength = 24
    }

    /// A mark with its position.
    package struct PlacedMark: Sendable {
        /// The lane it is on.
        package var lane: Int
        /// Its index in the lane's `marks`.
        package var index: Int
        /// The centre of the mark.
        package var x: Double
        /// The label drawn with it (cut to `maximumLabelLength`), empty for completion.
        package var label: String
    }

    /// The distinct times, ascending.
    package private(set) var times: [Double] = []
    /// The column centre of each of `times`.
    package private(set) var columns: [Double] = []
    /// Indices `i` of `times` where the gap to `times[i + 1]` was compressed.
    package private(set) var compressedGaps: [Int] = []
    /// Every mark of every lane, placed.
    package private(set) var marks: [PlacedMark] = []
    /// The width of the lane-title column.
    package private(set) var titleWidth = 0.0
    /// The whole picture's size.
    package private(set) var width = 0.0
    package private(set) var height = 0.0

    package init(_ timeline: MarbleTimeline) {
        titleWidth = timeline.lanes.map { Self.textWidth(Self.cut($0.title, to: Metrics.maximumTitleLength)) }.max().map { $0 + Metrics.margin } ?? 0
        var allTimes = Set<Double>()
        for lane in timeline.lanes {
            for mark in lane.marks { allTimes.insert(mark.time) }
            for span in lane.spans {
                allTimes.insert(span.start)
                if let end = span.end { allTimes.insert(end) }
            }
        }
        times = allTimes.filter(\.isFinite).sorted()
        let columnOf = Dictionary(uniqueKeysWithValues: times.enumerated().map { ($1, $0) })

        // Column widths: the widest cluster at that time, or the time label.
        var columnWidth = times.map { Self.textWidth(timeline.timeLabel($0)) }
        var clusters: [[Int: [(index: Int, width: Double, label: String)]]] = Array(repeating: [:], count: timeline.lanes.count)
        for (laneIndex, lane) in timeline.lanes.enumerated() {
            for (index, mark) in lane.marks.enumerated() {
                guard let column = columnOf[mark.time] else { continue }
                let label = Self.label(of: mark.kind)
                let markWidth: Double
                switch mark.kind {
                case .completed: markWidth = Metrics.completionWidth
                case .next, .error: markWidth = max(2 * Metrics.marbleRadius, Self.textWidth(label))
                }
                clusters[laneIndex][column, default: []].append((index, markWidth, label))
            }
            for (column, cluster) in clusters[laneIndex] {
                let clusterWidth = cluster.reduce(0) { $0 + $1.width } + Metrics.markSpacing * Double(cluster.count - 1)
                columnWidth[column] = max(columnWidth[column], clusterWidth)
            }
        }

        // Column positions: proportional to time, at least wide enough, at most `maximumGap`.
        let deltas = zip(times.dropFirst(), times).map { $0 - $1 }
        let unit = deltas.min().map { Metrics.preferredGap / $0 } ?? 0
        var x = Metrics.margin + titleWidth + (columnWidth.first ?? 0) / 2
        for (column, _) in times.enumerated() {
            if column > 0 {
                let needed = (columnWidth[column - 1] + columnWidth[column]) / 2 + Metrics.columnPadding
                let proportional = deltas[column - 1] * unit
                if proportional > Metrics.maximumGap { compressedGaps.append(column - 1) }
                x += max(needed, min(proportional, Metrics.maximumGap))
            }
            columns.append(x)
        }
        let lastEdge = (columns.last ?? Metrics.margin + titleWidth) + (columnWidth.last ?? 0) / 2
        width = lastEdge + Metrics.margin + Metrics.preferredGap
        let captionHeight = timeline.caption == nil ? 0 : Metrics.captionHeight
        height = Metrics.margin + captionHeight + Double(timeline.lanes.count) * Metrics.laneHeight + Metrics.timeAxisHeight + Metrics.margin

        // Marks: each cluster centred on its column, in event order.
        for laneIndex in clusters.indices {
            for (column, cluster) in clusters[laneIndex] {
                let clusterWidth = cluster.reduce(0) { $0 + $1.width } + Metrics.markSpacing * Double(cluster.count - 1)
                var left = columns[column] - clusterWidth / 2
                for entry in cluster {
                    marks.append(PlacedMark(lane: laneIndex, index: entry.index, x: left + entry.width / 2, label: entry.label))
                    left += entry.width + Metrics.markSpacing
                }
            }
        }
        marks.sort { ($0.lane, $0.index) < ($1.lane, $1.index) }
    }

    /// The x of a time that is one of `times`, or the right edge for times past the last.
    package func x(of time: Double?) -> Double {
        guard let time, let column = times.firstIndex(of: time) else { return width - Metrics.margin }
        return columns[column]
    }

    /// The y of lane `index`'s axis.
    package func axisY(ofLane index: Int, hasCaption: Bool) -> Double {
        Metrics.margin + (hasCaption ? Metrics.captionHeight : 0) + Double(index) * Metrics.laneHeight + Metrics.axisOffset
    }

    /// The label drawn for a mark.
    static func label(of kind: MarbleTimeline.Mark.Kind) -> String {
        switch kind {
        case .next(let text), .error(let text): cut(text, to: Metrics.maximumLabelLength)
        case .completed: ""
        }
    }

    /// `text` on one line, at most `length` characters, ending in "…" when it was cut.
    package static func cut(_ text: String, to length: Int) -> String {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return oneLine.count <= length ? oneLine : String(oneLine.prefix(length - 1)) + "…"
    }

    static func textWidth(_ text: String) -> Double { Double(text.count) * Metrics.characterWidth }
}
