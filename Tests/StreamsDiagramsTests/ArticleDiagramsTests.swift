import Foundation
import StreamsDiagrams
import XCTest

/// The operator articles (Sources/Streams/Streams.docc/*.md) show a diagram's picture
/// (`marble-<name>.svg`) and then, as an indented marble block, its lanes. Where that block has the
/// diagram's input lanes, its output lane must be what the code produces (the comparison the doc
/// comments get: trailing `-` and `…` aside).
final class ArticleDiagramsTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `label: marbles` lanes of every indented block of every Streams article.
    private func articleBlocks() throws -> [(article: String, pictures: Set<String>, lanes: [(label: String, marbles: String)])] {
        let folder = "Sources/Streams/Streams.docc"
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).filter { $0.hasSuffix(".md") }.sorted()
        var blocks: [(article: String, pictures: Set<String>, lanes: [(label: String, marbles: String)])] = []
        for name in names {
            let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
            var lanes: [(label: String, marbles: String)] = []
            var pictures: Set<String> = []
            for line in text.components(separatedBy: "\n") + [""] {
                for match in line.matches(of: /marble-([A-Za-z]+)\.svg/) { pictures.insert(String(match.1)) }
                if line.hasPrefix("    "), let match = line.firstMatch(of: /^ {4,}([A-Za-z0-9]+): +(\S+)/) {
                    lanes.append((String(match.1), String(match.2)))
                } else {
                    if !lanes.isEmpty {
                        blocks.append((name, pictures, lanes))
                        pictures = []
                    }
                    lanes = []
                }
            }
        }
        return blocks
    }

    private static func trimmed(_ marbles: String) -> Substring {
        var text = Substring(marbles)
        while let last = text.last, last == "-" || last == "…" { text = text.dropLast() }
        return text
    }

    func testArticleCopiesOfDocDiagramsSayWhatTheCodeDoes() throws {
        let blocks = try articleBlocks()
        var checked = 0
        for spec in DocDiagrams.all {
            let run = try DiagramRun(spec, root: root)
            let inputs = run.diagram.inputs.map { "\($0.label): \($0.marbles)" }
            for block in blocks where block.pictures.contains(spec.name) {
                // The block's lanes before its output lane number spec.outputIndex. A block with
                // more or fewer output lanes than the doc comment (another variant drawn too) is
                // not matched lane by lane.
                let outputs = block.lanes.enumerated().filter { $0.element.label == "output" }
                guard outputs.count == run.diagram.outputs.count, outputs.indices.contains(spec.outputIndex) else { continue }
                let output = outputs[spec.outputIndex]
                let before = block.lanes[..<output.offset].filter { $0.label != "output" }.suffix(inputs.count)
                guard before.map({ "\($0.label): \($0.marbles)" }) == inputs, !inputs.isEmpty else { continue }
                checked += 1
                XCTAssertEqual(
                    Self.trimmed(output.element.marbles), Self.trimmed(run.actualOutput),
                    "\(block.article): the block with \(inputs) documents \(output.element.marbles), \(spec.name) gives \(run.actualOutput)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 25, "article blocks matched to a diagram")
        print("ArticleDiagramsTests: \(checked) article marble blocks checked against the code")
    }
}
