/// Draws a `MarbleTimeline` as a standalone SVG document.
///
/// The drawing has one `<g class="lane">` per lane (its `data-title` is the lane's title), with an
/// axis line, a `<circle class="marble">` per element, a `<line class="completed">` per
/// completion, a `<g class="error">` cross per error and a `<rect class="subscription">` per
/// subscription span; every mark carries `data-time`. A highlighted mark gets the class
/// `difference` and a dashed guide across all lanes. Text is escaped, so any value description
/// is safe to draw.
///
/// For a page's script to zoom the time axis, the `<svg>` carries `data-plot-left` (where the
/// axis starts), every element placed in time carries `data-x` (its x, to translate), the axes
/// `data-x2` and the subscription spans `data-w`; a mark with a `detail` has a `<title>`, and one
/// with a `reference` a `data-event`, `tabindex="0"` and `role="button"`.
package enum MarbleTimelineSVG {
    /// The SVG document for `timeline`.
    package static func render(_ timeline: MarbleTimeline) -> String {
        let layout = MarbleTimelineLayout(timeline)
        typealias Metrics = MarbleTimelineLayout.Metrics
        let hasCaption = timeline.caption != nil
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="marble-timeline" width="\(number(layout.width))" \
            height="\(number(layout.height))" viewBox="0 0 \(number(layout.width)) \(number(layout.height))" \
            data-plot-left="\(number(Metrics.margin + layout.titleWidth - 6))">
            <style>
            .marble-timeline { font: 12px monospace; }
            .marble-timeline .axis { stroke: #555; stroke-width: 1.5; }
            .marble-timeline .marble { fill: #fff6d5; stroke: #444; stroke-width: 1.5; }
            .marble-timeline .completed { stroke: #444; stroke-width: 3; }
            .marble-timeline .error line { stroke: #c0392b; stroke-width: 3; }
            .marble-timeline .subscription { fill: #8fb3de; }
            .marble-timeline .difference .marble, .marble-timeline .difference line { stroke: #d0021b; stroke-width: 3; }
            .marble-timeline .guide { stroke: #d0021b; stroke-dasharray: 4 3; }
            .marble-timeline .break { stroke: #999; fill: none; }
            .marble-timeline .lane-title { font-weight: bold; }
            .marble-timeline .time { fill: #777; font-size: 10px; }
            </style>

            """
        if let caption = timeline.caption {
            svg += text(caption, x: Metrics.margin, y: Metrics.margin + 14, anchor: "start", className: "caption")
        }
        let firstAxis = layout.axisY(ofLane: 0, hasCaption: hasCaption)
        let lastAxis = layout.axisY(ofLane: max(timeline.lanes.count - 1, 0), hasCaption: hasCaption)
        let axisStart = Metrics.margin + layout.titleWidth - 6
        let axisEnd = layout.width - Metrics.margin

        // Guides first, so the lanes are drawn over them.
        for placed in layout.marks where timeline.lanes[placed.lane].marks[placed.index].isHighlighted {
            let x = number(placed.x)
            svg += "<line class=\"guide\" data-x=\"\(x)\" x1=\"\(x)\" y1=\"\(number(firstAxis - 20))\" x2=\"\(x)\" y2=\"\(number(lastAxis + 20))\"/>\n"
        }
        for (laneIndex, lane) in timeline.lanes.enumerated() {
            let y = layout.axisY(ofLane: laneIndex, hasCaption: hasCaption)
            svg += "<g class=\"lane\" data-title=\"\(escape(lane.title))\" data-marks=\"\(lane.marks.count)\">\n"
            let title = MarbleTimelineLayout.cut(lane.title, to: Metrics.maximumTitleLength)
            svg += text(title, x: Metrics.margin, y: y + 4, anchor: "start", className: "lane-title")
            svg += "<line class=\"axis\" data-x2=\"\(number(axisEnd))\" "
            svg += "x1=\"\(number(axisStart))\" y1=\"\(number(y))\" x2=\"\(number(axisEnd))\" y2=\"\(number(y))\"/>\n"
            for gap in layout.compressedGaps {
                let middle = (layout.columns[gap] + layout.columns[gap + 1]) / 2
                svg += "<path class=\"break\" data-x=\"\(number(middle))\" "
                svg += "d=\"M\(number(middle - 5)) \(number(y + 6)) l4 -12 M\(number(middle + 1)) \(number(y + 6)) l4 -12\"/>\n"
            }
            for span in lane.spans {
                let start = layout.x(of: span.start)
                let end = layout.x(of: span.end)
                svg += "<rect class=\"subscription\" data-start=\"\(number(span.start))\" data-end=\"\(span.end.map(number) ?? "")\" "
                svg += "data-x=\"\(number(start))\" data-w=\"\(number(max(end - start, 2)))\" "
                svg += "x=\"\(number(start))\" y=\"\(number(y + 30))\" width=\"\(number(max(end - start, 2)))\" height=\"4\"/>\n"
            }
            for placed in layout.marks where placed.lane == laneIndex {
                svg += mark(lane.marks[placed.index], placed: placed, axisY: y)
            }
            svg += "</g>\n"
        }

        let timeY = lastAxis + Metrics.laneHeight - Metrics.axisOffset + 12
        svg += "<g class=\"times\">\n"
        for (column, time) in layout.times.enumerated() {
            let x = number(layout.columns[column])
            svg += "<text class=\"time\" data-x=\"\(x)\" x=\"\(x)\" y=\"\(number(timeY))\" text-anchor=\"middle\">\(escape(timeline.timeLabel(time)))</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    private static func mark(_ mark: MarbleTimeline.Mark, placed: MarbleTimelineLayout.PlacedMark, axisY y: Double) -> String {
        let radius = MarbleTimelineLayout.Metrics.marbleRadius
        let group = mark.isHighlighted ? " difference" : ""
        let time = number(mark.time)
        let x = placed.x
        var attributes = "data-time=\"\(time)\" data-x=\"\(number(x))\""
        if let reference = mark.reference { attributes += " data-event=\"\(reference)\" tabindex=\"0\" role=\"button\"" }
        let title = mark.detail.map { "<title>\(escapeKeepingLines($0))</title>" } ?? ""
        switch mark.kind {
        case .next:
            return "<g class=\"next\(group)\" \(attributes)>\(title)"
                + "<circle class=\"marble\" cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\"/>"
                + text(placed.label, x: x, y: y + radius + 14, anchor: "middle", className: "label", newline: false)
                + "</g>\n"
        case .error:
            let size = radius * 0.7
            return "<g class=\"error\(group)\" \(attributes)>\(title)"
                + "<line x1=\"\(number(x - size))\" y1=\"\(number(y - size))\" x2=\"\(number(x + size))\" y2=\"\(number(y + size))\"/>"
                + "<line x1=\"\(number(x - size))\" y1=\"\(number(y + size))\" x2=\"\(number(x + size))\" y2=\"\(number(y - size))\"/>"
                + text(placed.label, x: x, y: y + radius + 14, anchor: "middle", className: "label", newline: false)
                + "</g>\n"
        case .completed:
            return "<g class=\"completion\(group)\" \(attributes)>\(title)"
                + "<line class=\"completed\" x1=\"\(number(x))\" y1=\"\(number(y - radius))\" x2=\"\(number(x))\" y2=\"\(number(y + radius))\"/>"
                + "</g>\n"
        }
    }

    private static func text(_ content: String, x: Double, y: Double, anchor: String, className: String, newline: Bool = true) -> String {
        "<text class=\"\(className)\" x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\">\(escape(content))</text>"
            + (newline ? "\n" : "")
    }

    /// `value` with XML's five special characters escaped, and control characters dropped
    /// (XML 1.0 cannot carry them).
    package static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped += " "
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `value` escaped as by `escape(_:)`, but keeping its line breaks (for a `<title>`).
    static func escapeKeepingLines(_ value: String) -> String {
        value.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n")
    }

    /// A coordinate with at most one decimal, without a trailing ".0".
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
