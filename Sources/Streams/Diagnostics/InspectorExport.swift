import Foundation

extension Inspector {
    /// Everything recorded, as JSON: `{"snapshot": …, "events": […]}` (see ``InspectorSnapshot``
    /// and ``InspectorEvent`` for the fields).
    public static func exportJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let export = InspectorExport(snapshot: snapshot(), events: events())
        // Encoding plain strings, numbers and arrays cannot fail.
        return (try? encoder.encode(export)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A self-contained HTML page of everything recorded: a timeline with one lane per
    /// ``ObservableType/named(_:)`` label, the live graph (each chain's operators with their live
    /// and total subscriptions, and where the chain was subscribed), each chain's marble timeline
    /// (one lane per operator that delivered events), and the JSON of ``exportJSON()``.
    public static func exportHTML(title: String = "Streams inspector") -> String {
        InspectorPage(title: title, snapshot: snapshot(), events: events(), json: exportJSON()).html
    }
}

/// The JSON export's shape.
private struct InspectorExport: Encodable {
    var snapshot: InspectorSnapshot
    var events: [InspectorEvent]
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
            details pre { font-size: 11px; color: #555; }
            </style></head><body>
            <h1>\(escape(title))</h1>
            <p class="summary">\(snapshot.chains.count) chain(s) recorded, \(live.count) live, \
            \(live.reduce(0) { $0 + $1.liveSubscriptions }) live subscription(s), \(events.count) event(s).</p>

            """
        page += namedTimeline()
        page += "<h2>Live graph</h2>\n<div id=\"graph\">\n"
        for chain in snapshot.chains { page += chainSection(chain) }
        page += "</div>\n"
        page += "<script type=\"application/json\" id=\"inspector-data\">\(json.replacingOccurrences(of: "</", with: "<\\/"))</script>\n"
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
        let lanes = labels.map { label in
            MarbleTimeline.Lane(title: label, marks: events.filter { $0.label == label }.map(mark))
        }
        let svg = MarbleTimelineSVG.render(MarbleTimeline(lanes: lanes, caption: "named streams", timeLabel: Self.seconds))
        return "<h2>Named streams</h2>\n<div class=\"timeline\" id=\"named-streams\">\n\(svg)</div>\n"
    }

    private func chainSection(_ chain: InspectorSnapshot.Chain) -> String {
        let name = chain.name.map { "“\(escape($0))”" } ?? "unnamed"
        var html = "<section class=\"chain\(chain.isLive ? " live" : "")\" data-chain=\"\(chain.id)\">\n"
        html += "<h3>Chain \(chain.id): \(name) — \(chain.isLive ? "live" : "ended"), "
        html += "\(chain.liveSubscriptions) live subscription(s), subscribed at \(Self.seconds(chain.subscribedAt)) on \(escape(chain.thread))</h3>\n"
        html += "<ul class=\"operators\">\n" + operatorTree(chain, parent: nil) + "</ul>\n"
        if chain.droppedEvents > 0 {
            html += "<p class=\"count\">\(chain.droppedEvents) older event(s) dropped from the ring buffer.</p>\n"
        }
        if !chain.callStack.isEmpty {
            html += "<details><summary>Subscribed from</summary><pre>\(escape(chain.callStack.joined(separator: "\n")))</pre></details>\n"
        }
        let chainEvents = events.filter { $0.chain == chain.id }
        let lanes = chain.operators.compactMap { place -> MarbleTimeline.Lane? in
            let marks = chainEvents.filter { $0.operatorID == place.id }.map(mark)
            guard !marks.isEmpty else { return nil }
            return MarbleTimeline.Lane(title: place.label.map { "\(place.name) “\($0)”" } ?? place.name, marks: marks)
        }
        if !lanes.isEmpty {
            html += "<div class=\"timeline\">\n" + MarbleTimelineSVG.render(MarbleTimeline(lanes: lanes, timeLabel: Self.seconds)) + "</div>\n"
        }
        return html + "</section>\n"
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

    private func mark(_ event: InspectorEvent) -> MarbleTimeline.Mark {
        switch event.kind {
        case .next: MarbleTimeline.Mark(time: event.time, kind: .next(event.value ?? ""))
        case .error: MarbleTimeline.Mark(time: event.time, kind: .error(event.value ?? "error"))
        case .completed: MarbleTimeline.Mark(time: event.time, kind: .completed)
        }
    }

    private func escape(_ text: String) -> String { MarbleTimelineSVG.escape(text) }

    /// Seconds as milliseconds with one decimal, `12.3ms`.
    static let seconds: @Sendable (Double) -> String = { time in
        let tenths = (time * 10_000).rounded()
        return "\(Int64(tenths) / 10).\(abs(Int64(tenths)) % 10)ms"
    }
}
