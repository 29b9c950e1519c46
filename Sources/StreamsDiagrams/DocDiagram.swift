/// A marble diagram as written in a `///` comment: labelled lanes, inputs first, outputs last.
///
///     ///     source: --1--2--3--|
///     ///     output: --2--4--6--|     (transform: { $0 * 2 })
///
/// Each lane is `label: marbles`, optionally followed by spaces and a parenthesised remark. The
/// marbles' column matters for lanes that start later (a cold observable subscribed at an error,
/// say): leading spaces beyond the first lane's column are kept as `offset`.
public struct DocDiagram: Equatable, Sendable {
    /// One labelled line.
    public struct Lane: Equatable, Sendable {
        /// The label before the colon (`source`, `output`, ...).
        public var label: String
        /// The marbles, without leading spaces.
        public var marbles: String
        /// How many frames right of the first lane's marbles this lane starts.
        public var offset: Int
    }

    /// The lanes, top to bottom.
    public var lanes: [Lane]

    /// The lanes labelled `output`.
    public var outputs: [Lane] { lanes.filter { $0.label == "output" } }
    /// The other lanes.
    public var inputs: [Lane] { lanes.filter { $0.label != "output" } }

    /// Why a diagram could not be read.
    public struct ReadError: Error, CustomStringConvertible, Equatable {
        /// What went wrong, and where.
        public var description: String
    }

    /// Reads the diagram in the doc comment right above the first line of `source` containing
    /// `declaration` (attributes between the comment and the declaration are skipped).
    public static func read(from source: String, before declaration: String, file: String = "source") throws(ReadError) -> DocDiagram {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let declarationLine = lines.firstIndex(where: { $0.contains(declaration) }) else {
            throw ReadError(description: "\(file): no line contains \"\(declaration)\"")
        }
        func isDoc(_ line: String) -> Bool { line.trimmingPrefixSpaces().hasPrefix("///") }
        func isAttribute(_ line: String) -> Bool {
            let text = line.trimmingPrefixSpaces()
            return text.hasPrefix("@") || (text.hasPrefix("//") && !text.hasPrefix("///"))
        }
        var end = declarationLine
        while end > 0, isAttribute(lines[end - 1]) { end -= 1 }
        var start = end
        while start > 0, isDoc(lines[start - 1]) { start -= 1 }
        var lanes: [(label: String, marbles: String, column: Int)] = []
        for line in lines[start..<end] {
            guard let lane = parseLane(line) else {
                if !lanes.isEmpty { break }
                continue
            }
            lanes.append(lane)
        }
        guard !lanes.isEmpty else { throw ReadError(description: "\(file): no marble diagram above \"\(declaration)\"") }
        let firstColumn = lanes.map(\.column).min() ?? 0
        return DocDiagram(lanes: lanes.map { Lane(label: $0.label, marbles: $0.marbles, offset: $0.column - firstColumn) })
    }

    /// `label: marbles  (remark)` in a `///     ` code line, with the marbles' column.
    private static func parseLane(_ line: String) -> (label: String, marbles: String, column: Int)? {
        let text = line.trimmingPrefixSpaces()
        guard text.hasPrefix("///     ") else { return nil }
        let body = String(text.dropFirst(8))
        guard let colon = body.firstIndex(of: ":") else { return nil }
        let label = String(body[..<colon]).trimmingSpaces()
        guard !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        let afterColon = body[body.index(after: colon)...]
        let leading = afterColon.prefix { $0 == " " }.count
        let rest = afterColon.dropFirst(leading)
        let marbles = String(rest.prefix { $0 != " " })
        guard !marbles.isEmpty else { return nil }
        return (label, marbles, body.distance(from: body.startIndex, to: colon) + 1 + leading)
    }
}

extension String {
    fileprivate func trimmingPrefixSpaces() -> Substring { drop { $0 == " " } }

    fileprivate func trimmingSpaces() -> String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
