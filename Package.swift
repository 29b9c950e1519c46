// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Streams",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsCocoa", targets: ["StreamsCocoa"]),
        .library(name: "StreamsBlocking", targets: ["StreamsBlocking"]),
        .library(name: "StreamsTest", targets: ["StreamsTest"]),
        .library(name: "ConfigFeatures", targets: ["ConfigFeatures"]),
        .library(name: "ConfigFeaturesTestServer", targets: ["ConfigFeaturesTestServer"]),
    ],
    traits: [
        // The stream inspector (Inspector.start()/snapshot()/exportHTML(), call-site symbolication,
        // thread names). On by default; `traits: []` on the dependency, or
        // `swift build --disable-default-traits`, builds Streams without it: smaller, faster to
        // compile, no libswiftRuntime on Linux, and `.named(_:)` is a plain label.
        .trait(name: "Inspector", description: "The stream inspector: recording, snapshots and the HTML/JSON exports."),
        .default(enabledTraits: ["Inspector"]),
    ],
    targets: [
        .target(name: "Streams"),
        .target(name: "StreamsCocoa", dependencies: ["Streams"]),
        // RxBlocking's API without XCTest, for apps and command-line tools; StreamsTest re-exports it.
        .target(name: "StreamsBlocking", dependencies: ["Streams"]),
        .target(name: "StreamsTest", dependencies: ["Streams", "StreamsBlocking"]),
        .target(name: "ConfigFeatures", dependencies: ["Streams"]),
        .target(name: "ConfigFeaturesTestServer", dependencies: ["ConfigFeatures"]),
        .target(name: "StreamsDemos", dependencies: ["ConfigFeatures", "ConfigFeaturesTestServer", "Streams"], path: "Examples/Demos"),
        .executableTarget(name: "streams-demo", dependencies: ["StreamsDemos", "Streams"], path: "Examples/StreamsDemo"),
        .executableTarget(name: "launch-demo", dependencies: ["StreamsDemos"], path: "Examples/LaunchDemo"),
        .executableTarget(name: "item-list-demo", dependencies: ["StreamsDemos"], path: "Examples/ItemListDemo"),
        .executableTarget(name: "force-update-demo", dependencies: ["StreamsDemos"], path: "Examples/ForceUpdateDemo"),
        .executableTarget(name: "group-comments-demo", dependencies: ["StreamsDemos"], path: "Examples/GroupCommentsDemo"),
        // A command-line tool using StreamsBlocking alone; StreamsBlockingLinkTests checks it links no XCTest.
        .executableTarget(name: "blocking-demo", dependencies: ["StreamsBlocking"], path: "Examples/BlockingDemo"),
        .executableTarget(name: "firebase-test-server", dependencies: ["ConfigFeaturesTestServer"], path: "Examples/FirebaseTestServerTool"),
        .executableTarget(name: "local-first-writer", dependencies: ["ConfigFeatures", "Streams"], path: "Examples/LocalFirstWriter"),
        // Signs in with FirebaseAuth against an Auth emulator and writes the ID token to a file (firebase-admin-check.sh verifies it).
        // Evaluates a Remote Config server template for JSON-line contexts (firebase-admin-check.sh compares it with firebase-admin).
        .executableTarget(name: "server-template-eval", dependencies: ["ConfigFeatures", "Streams", "StreamsBlocking"], path: "Examples/ServerTemplateEval"),
        .executableTarget(name: "auth-token-demo", dependencies: ["ConfigFeatures", "Streams", "StreamsBlocking"], path: "Examples/AuthTokenDemo"),
        .target(name: "StreamsBenchmarks", dependencies: ["Streams", "ConfigFeatures", "ConfigFeaturesTestServer"], path: "Benchmarks/StreamsBenchmarks"),
        .executableTarget(name: "streams-bench", dependencies: ["StreamsBenchmarks"], path: "Benchmarks/StreamsBench"),
        // Writes the fixed-arity sources (`swift run streams-codegen`); depends on nothing.
        .executableTarget(name: "streams-codegen", path: "Sources/StreamsCodegen"),
        // The docs' executable marble diagrams, and the tool that draws them (`swift run streams-diagrams`).
        .target(name: "StreamsDiagrams", dependencies: ["Streams", "StreamsTest"]),
        .executableTarget(name: "streams-diagrams", dependencies: ["StreamsDiagrams"], path: "Sources/StreamsDiagramsTool"),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTest", "StreamsDiagrams"]),
        .testTarget(name: "StreamsCocoaTests", dependencies: ["StreamsCocoa", "StreamsTest"]),
        .testTarget(name: "StreamsTestTests", dependencies: ["Streams", "StreamsTest", "StreamsDiagrams"]),
        .testTarget(name: "StreamsDiagramsTests", dependencies: ["StreamsDiagrams", "Streams", "StreamsTest"]),
        .testTarget(name: "StreamsBenchmarksTests", dependencies: ["StreamsBenchmarks", "Streams", "StreamsTest"]),
        .testTarget(name: "ConfigFeaturesTests", dependencies: ["ConfigFeatures", "Streams", "StreamsTest", "StreamsDiagrams"]),
        .testTarget(name: "StreamsDemosTests", dependencies: ["StreamsDemos", "ConfigFeatures", "ConfigFeaturesTestServer", "Streams", "StreamsTest"]),
        .testTarget(name: "NetworkingTests", dependencies: ["ConfigFeatures", "ConfigFeaturesTestServer", "Streams", "StreamsTest"]),
    ],
    swiftLanguageModes: [.v6]
)
