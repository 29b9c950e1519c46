// Runs the feature demos, all in a row or one by name, on the embedded in-memory backends.
//
//   swift run streams-demo               every demo
//   swift run streams-demo <name> …      the named demos
//   swift run streams-demo --list        the names
import Foundation
import StreamsDemos

let demos: [(name: String, summary: String, run: () -> Void)] = [
    ("launch", "seed 000: config behind the splash, with a timeout and both loading strategies", runLaunchDemo),
    ("item-list", "seed 001: a config-driven JSON item list on Action (isLoading, errors)", runItemListDemo),
    ("force-update", "seed 002: a live required_version update forces an app update", runForceUpdateDemo),
    ("group-comments", "seed 004: follow a user's changing chat groups and merge their comments", runGroupCommentsDemo),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--list") || arguments.contains("--help") || arguments.contains("-h") {
    print("usage: streams-demo [name …]\n\ndemos:")
    for demo in demos { print("  \(demo.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(demo.summary)") }
    exit(0)
}
let unknown = arguments.filter { name in !demos.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("streams-demo: unknown demo \(unknown.joined(separator: ", ")); try --list\n".utf8))
    exit(2)
}
let selected = arguments.isEmpty ? demos : demos.filter { arguments.contains($0.name) }
for (index, demo) in selected.enumerated() {
    if index > 0 { print("") }
    print("━━ \(demo.name): \(demo.summary) ━━")
    demo.run()
}
