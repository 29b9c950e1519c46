import Foundation
import StreamsDiagrams
import XCTest

/// The documentation's marble diagrams agree with the code, and their pictures are current.
final class DocDiagramsTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testDocDiagrams_documentedOutputsAreWhatTheCodeDoes() {
        XCTAssertGreaterThanOrEqual(DocDiagrams.all.count, 40)
        for spec in DocDiagrams.all {
            do {
                let run = try DiagramRun(spec, root: root)
                XCTAssertTrue(
                    run.documentationIsRight,
                    "\(spec.name): \(spec.file) documents \(run.documentedOutput), the code gives \(run.actualOutput)")
            } catch {
                XCTFail("\(error)")
            }
        }
    }

    func testDocDiagrams_picturesAreUpToDate() throws {
        for spec in DocDiagrams.all {
            let run = try DiagramRun(spec, root: root)
            let url = root.appendingPathComponent(DocDiagramFiles.resourcesPath).appendingPathComponent(DocDiagramFiles.fileName(of: spec))
            let onDisk = try? String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(onDisk, run.svg, "\(url.lastPathComponent) is out of date: run `swift run streams-diagrams`")
        }
    }

    func testDocDiagrams_namesAreUnique() {
        XCTAssertEqual(Set(DocDiagrams.all.map(\.name)).count, DocDiagrams.all.count)
    }

    func testDocDiagram_readsLanesOffsetsAndRemarks() throws {
        let source = """
                /// Recovers.
                ///
                ///     source:  -a-b-#
                ///     handler:       -x-y|
                ///     output:  -a-b--x-y|     (a remark)
                ///
                /// More text.
                @inlinable
                public func recover() {}
            """
        let diagram = try DocDiagram.read(from: source, before: "func recover(")
        XCTAssertEqual(diagram.inputs.map(\.label), ["source", "handler"])
        XCTAssertEqual(diagram.inputs.map(\.offset), [0, 6])
        XCTAssertEqual(diagram.outputs.map(\.marbles), ["-a-b--x-y|"])
    }

    func testDocDiagram_missingDiagramOrDeclarationIsATypedError() {
        XCTAssertThrowsError(try DocDiagram.read(from: "/// No diagram.\nfunc f() {}", before: "func f("))
        XCTAssertThrowsError(try DocDiagram.read(from: "func f() {}", before: "func g("))
    }

    func testDiagramRun_aWrongDocumentedOutputIsCaught() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diagrams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrong = """
            /// Doubles.
            ///
            ///     source: --1--2--|
            ///     output: --2--5--|
            func doubled() {}
            """
        try wrong.write(to: folder.appendingPathComponent("Wrong.swift"), atomically: true, encoding: .utf8)
        let spec = DiagramSpec("wrong", file: "Wrong.swift", declaration: "func doubled(", caption: "map") { inputs, _ in
            inputs[0].map { String(Int($0)! * 2) }
        }
        let run = try DiagramRun(spec, root: folder)
        XCTAssertFalse(run.documentationIsRight)
        XCTAssertEqual(run.actualOutput, "--2--4--|")
    }
}
