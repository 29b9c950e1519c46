#if Inspector
@_spi(StreamsInspectorSupport) import Streams
import StreamsTimeline
import Foundation

extension Inspector {
    /// Everything recorded, as JSON: `{"snapshot": …, "events": […]}` (see ``InspectorSnapshot``
    /// and ``InspectorEvent`` for the fields).
    public static func exportJSON() -> String {
        json(InspectorExport(snapshot: snapshot(), events: events()))
    }

    /// A self-contained HTML page of everything recorded: a timeline with one lane per
    /// [`named(_:)`](/documentation/streams/observabletype/named(_:)) label, fitted to the window's width with zoom controls, the
    /// live graph (each chain's operators with their live and total subscriptions, and where and
    /// on which thread the chain was subscribed), each chain's marble timeline (one lane per
    /// operator that delivered events), and the JSON of ``exportJSON()``. Hovering a marble shows
    /// its whole value; clicking it, or pressing Return on it, opens it in a detail panel.
    public static func exportHTML(title: String = "Streams inspector") -> String {
        let export = InspectorExport(snapshot: snapshot(), events: events())
        return InspectorPage(title: title, snapshot: export.snapshot, events: export.events, json: json(export)).html
    }

    private static func json(_ export: InspectorExport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain strings, numbers and arrays cannot fail.
        return (try? encoder.encode(export)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// The JSON export's shape (encoded by hand with the inspector's one key type, see
/// InspectorSnapshot+Codable.swift).
private struct InspectorExport: Encodable {
    var snapshot: InspectorSnapshot
    var events: [InspectorEvent]

    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encode(snapshot, forKey: "snapshot")
        try keyed.encode(events, forKey: "events")
    }
}

/// Builds the inspector's HTML page.
private struct InspectorPage {
    let title: String
    let snapshot: InspectorSnapshot
    let events: [InspectorEvent]
    let json: String

    var html: String {
        let live = snapshot.liveChains
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body { font: 14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
            h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; }
            .chain { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; margin: 12px 0; }
            .chain.live { border-color: #8fb3de; }
            .operators { font-family: monospace; }
            .count { color: #666; }
            .timeline { overflow-x: auto; }
            .zoom { margin: 4px 0; } .zoom button { font: inherit; min-width: 2.2em; } .zoom .level { color: #666; margin-left: 6px; }
            .origin code { font-size: 13px; } .origin .file { font-family: monospace; color: #1d5ea8; }
            .missing { color: #a35a00; }
            ol.frames { font: 11px monospace; color: #555; }
            .marble-timeline [data-event] { cursor: pointer; }
            .marble-timeline [data-event]:focus { outline: none; } .marble-timeline [data-event]:focus .marble { stroke: #1d5ea8; stroke-width: 3; }
            .marble-timeline .selected .marble { fill: #cfe3fa; }
            #detail { position: fixed; right: 16px; bottom: 16px; width: min(560px, 45vw); max-height: 60vh; overflow: auto; background: #fff;
              border: 1px solid #8fb3de; border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.2); padding: 8px 14px; }
            #detail pre { white-space: pre-wrap; word-break: break-word; font-size: 12px; background: #f6f8fa; padding: 6px; }
            #detail .close { float: right; }
            #hover { position: absolute; z-index: 2; max-width: 480px; max-height: 320px; overflow: hidden; background: #fffbe6; border: 1px solid #c9b458;
              border-radius: 4px; padding: 4px 8px; font-size: 12px; pointer-events: none; box-shadow: 0 2px 8px rgba(0,0,0,.15); }
            #hover pre { margin: 4px 0 0; white-space: pre-wrap; word-break: break-word; }
            </style></head><body>
            <h1>\(escape(title))</h1>
            <p class="summary">\(snapshot.chains.count) chain(s) recorded, \(live.count) live, \
            \(live.reduce(0) { $0 + $1.liveSubscriptions }) live subscription(s), \(events.count) event(s).</p>

            """
        page += namedTimeline()
        page += "<h2>Live graph</h2>\n<div id=\"graph\">\n"
        for chain in snapshot.chains { page += chainSection(chain) }
        page += "</div>\n"
        page += "<div id=\"hover\" role=\"tooltip\" hidden></div>\n"
        page += "<aside id=\"detail\" role=\"region\" aria-label=\"Event\" aria-live=\"polite\" hidden></aside>\n"
        page += "<script type=\"application/json\" id=\"inspector-data\">\(json.replacingOccurrences(of: "</", with: "<\\/"))</script>\n"
        page += "<script>\n\(InspectorPageScript.source)</script>\n"
        page += "</body></html>\n"
        return page
    }

    /// One lane per label, across chains: the streams the app named.
    private func namedTimeline() -> String {
        var labels: [String] = []
        for event in events {
            if let label = event.label, !labels.contains(label) { labels.append(label) }
        }
        guard !labels.isEmpty else { return "<h2>Named streams</h2>\n<p>No events at a <code>named(_:)</code> label.</p>\n" }
        let indexed = Array(events.enumerated())
        let lanes = labels.map { label in
            MarbleTimeline.Lane(title: label, marks: indexed.filter { $0.element.label == label }.map { mark($0.element, index: $0.offset) })
        }
        let svg = MarbleTimelineSVG.render(MarbleTimeline(lanes: lanes, caption: "named streams", timeLabel: Self.seconds))
        return "<h2>Named streams</h2>\n<div class=\"timeline\" id=\"named-streams\">\n\(svg)</div>\n"
    }

    private func chainSection(_ chain: InspectorSnapshot.Chain) -> String {
        let name = chain.name.map { "“\(escape($0))”" } ?? "unnamed"
        var html = "<section class=\"chain\(chain.isLive ? " live" : "")\" data-chain=\"\(chain.id)\">\n"
        html += "<h3>Chain \(chain.id): \(name) — \(chain.isLive ? "live" : "ended"), "
        html += "\(chain.liveSubscriptions) live subscription(s), subscribed at \(Self.seconds(chain.subscribedAt)) "
        html += "on <span class=\"thread\">\(escape(chain.thread))</span></h3>\n"
        html += origin(chain)
        html += "<ul class=\"operators\">\n" + operatorTree(chain, parent: nil) + "</ul>\n"
        if chain.droppedEvents > 0 {
            html += "<p class=\"count\">\(chain.droppedEvents) older event(s) dropped from the ring buffer.</p>\n"
        }
        if chain.callSites.count > 1 {
            let frames = chain.callSites.map { "<li>\(escape($0.description))</li>" }.joined(separator: "\n")
            html += "<details><summary>Call stack (\(chain.callSites.count) frames, innermost first)</summary>"
            html += "<ol class=\"frames\">\n\(frames)</ol></details>\n"
        }
        let chainEvents = events.enumerated().filter { $0.element.chain == chain.id }
        let lanes = chain.operators.compactMap { place -> MarbleTimeline.Lane? in
            let marks = chainEvents.filter { $0.element.operatorID == place.id }.map { mark($0.element, index: $0.offset) }
            guard !marks.isEmpty else { return nil }
            return MarbleTimeline.Lane(title: place.label.map { "\(place.name) “\($0)”" } ?? place.name, marks: marks)
        }
        if !lanes.isEmpty {
            html += "<div class=\"timeline\">\n" + MarbleTimelineSVG.render(MarbleTimeline(lanes: lanes, timeLabel: Self.seconds)) + "</div>\n"
        }
        return html + "</section>\n"
    }

    /// "Subscribed from": the first frame of the user's code, its function and `file.swift:line`,
    /// or what symbolication could not find.
    private func origin(_ chain: InspectorSnapshot.Chain) -> String {
        var html = "<p class=\"origin\">Subscribed from "
        guard let site = chain.callSites.first else {
            return html + "<span class=\"missing\">(no call stack: captured only for a chain's first subscription, "
                + "when <code>capturesCallStacks</code> is on)</span></p>\n"
        }
        if let function = site.function {
            html += "<code class=\"function\">\(escape(function))</code>"
        } else {
            html += "<code class=\"address\">\(escape([site.image, site.address].compactMap { $0 }.joined(separator: " ")))</code>"
        }
        if let fileAndLine = site.fileAndLine, let file = site.file {
            html += " at <span class=\"file\" title=\"\(escape(file))\">\(escape(fileAndLine))</span>"
        }
        if let missing = site.missing { html += " <span class=\"missing\">(\(escape(missing)))</span>" }
        return html + "</p>\n"
    }

    private func operatorTree(_ chain: InspectorSnapshot.Chain, parent: Int?) -> String {
        chain.operators.filter { $0.parent == parent }.map { place in
            let label = place.label.map { " “\(escape($0))”" } ?? ""
            let children = operatorTree(chain, parent: place.id)
            return "<li data-operator=\"\(escape(place.name))\">\(escape(place.name))\(label) "
                + "<span class=\"count\">\(place.liveSubscriptions) live / \(place.totalSubscriptions) total</span>"
                + (children.isEmpty ? "" : "\n<ul>\n\(children)</ul>") + "</li>\n"
        }.joined()
    }

    /// The marble of `events[index]`: its short label on the lane, a `<title>` (the page's script
    /// replaces it with a tooltip of the whole value), and its index into the JSON's events.
    private func mark(_ event: InspectorEvent, index: Int) -> MarbleTimeline.Mark {
        let heading = "\(event.label ?? event.operatorName) · \(event.kind.rawValue) at \(Self.seconds(event.time)) on \(event.thread)"
        // The hover text without the script: the whole value is in the JSON, and the script's
        // tooltip and panel show it.
        let detail = event.value.map { "\(heading)\n\($0.count > 240 ? $0.prefix(239) + "…" : $0)" } ?? heading
        let kind: MarbleTimeline.Mark.Kind
        switch event.kind {
        case .next: kind = .next(event.value ?? "")
        case .error: kind = .error(event.value ?? "error")
        case .completed: kind = .completed
        }
        return MarbleTimeline.Mark(time: event.time, kind: kind, detail: detail, reference: index)
    }

    private func escape(_ text: String) -> String { MarbleTimelineSVG.escape(text) }

    /// Seconds as milliseconds with one decimal, `12.3ms`.
    static let seconds: @Sendable (Double) -> String = { time in
        let tenths = (time * 10_000).rounded()
        return "\(Int64(tenths) / 10).\(abs(Int64(tenths)) % 10)ms"
    }
}
#endif
