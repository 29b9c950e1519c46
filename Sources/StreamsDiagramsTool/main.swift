// streams-diagrams: writes the documentation's marble pictures.
//
//     swift run streams-diagrams            # (re)write Sources/Streams/Streams.docc/Resources/marble-*.svg
//     swift run streams-diagrams --check    # write nothing; exit 1 if a picture is stale or a comment is wrong
//
// Each picture comes from running a `DocDiagrams` spec (Sources/StreamsDiagrams) on a
// TestScheduler with the inputs of the operator's `///` diagram; the run also checks that the
// comment's output line says what the code does. `swift test` checks the same (DocDiagramsTests).
import Foundation
import StreamsDiagrams

let arguments = CommandLine.arguments.dropFirst()
let check = arguments.contains("--check")
if let unknown = arguments.first(where: { $0 != "--check" }) {
    FileHandle.standardError.write(Data("streams-diagrams: unknown argument \(unknown)\nusage: streams-diagrams [--check]\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let resources = root.appendingPathComponent(DocDiagramFiles.resourcesPath)
var problems: [String] = []
var written = 0
for spec in DocDiagrams.all {
    let run: DiagramRun
    do {
        run = try DiagramRun(spec, root: root)
    } catch {
        problems.append(error.description)
        continue
    }
    if !run.documentationIsRight {
        problems.append("\(spec.name): \(spec.file) documents output \(run.documentedOutput), the code gives \(run.actualOutput)")
    }
    let url = resources.appendingPathComponent(DocDiagramFiles.fileName(of: spec))
    let current = try? String(contentsOf: url, encoding: .utf8)
    guard current != run.svg else { continue }
    if check {
        problems.append("\(spec.name): \(DocDiagramFiles.resourcesPath)/\(url.lastPathComponent) is out of date")
    } else {
        do {
            try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
            try run.svg.write(to: url, atomically: true, encoding: .utf8)
            written += 1
        } catch {
            problems.append("\(spec.name): cannot write \(url.path): \(error)")
        }
    }
}
if problems.isEmpty {
    print("streams-diagrams: \(DocDiagrams.all.count) diagrams right" + (check ? ", pictures up to date" : ", \(written) picture(s) written"))
} else {
    for problem in problems { FileHandle.standardError.write(Data("streams-diagrams: \(problem)\n".utf8)) }
    if check { FileHandle.standardError.write(Data("streams-diagrams: run `swift run streams-diagrams` to rewrite the pictures\n".utf8)) }
    exit(1)
}
