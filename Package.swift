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
        // The stream inspector: `Inspector.start()`, snapshots, the HTML/JSON timeline, call sites.
        .library(name: "StreamsInspector", targets: ["StreamsInspector"]),
        .library(name: "ConfigFeatures", targets: ["ConfigFeatures"]),
        .library(name: "ConfigFeaturesTestServer", targets: ["ConfigFeaturesTestServer"]),
    ],
    traits: [
        // The stream inspector's hook in Streams (one relaxed load per subscription while it does
        // not record) and the StreamsInspector product's recorder. On by default; `traits: []` on
        // the dependency, or `swift build --disable-default-traits`, compiles both out:
        // `.named(_:)` is then a plain label and StreamsInspector's API is unavailable.
        .trait(name: "Inspector", description: "The stream inspector: recording, snapshots and the HTML/JSON exports."),
        .default(enabledTraits: ["Inspector"]),
    ],
    targets: [
        .target(name: "Streams"),
        .target(name: "StreamsCocoa", dependencies: ["Streams"]),
        // RxBlocking's API without XCTest, for apps and command-line tools; StreamsTest re-exports it.
        .target(name: "StreamsBlocking", dependencies: ["Streams"]),
        .target(name: "StreamsTest", dependencies: ["Streams", "StreamsBlocking", "StreamsTimeline"]),
        // The marble timeline model and its SVG renderer, shared by StreamsTest's marble pictures
        // and the inspector's page; `package` API, not a product.
        .target(name: "StreamsTimeline"),
        // The stream inspector, a product of its own so that an app that does not use it neither
        // compiles nor links it (its page, exports, call-site symbolication and libswiftRuntime).
        .target(name: "StreamsInspector", dependencies: ["Streams", "StreamsTimeline", "StreamsInspectorStartup"]),
        // Installs the inspector's recorder before `main` when STREAMS_INSPECTOR=1 (a C constructor).
        .target(name: "StreamsInspectorStartup"),
        .target(name: "ConfigFeatures", dependencies: ["Streams"]),
        .target(name: "ConfigFeaturesTestServer", dependencies: ["ConfigFeatures"]),
        .target(name: "StreamsDemos", dependencies: ["ConfigFeatures", "ConfigFeaturesTestServer", "Streams", "StreamsInspector"], path: "Examples/Demos"),
        .executableTarget(name: "streams-demo", dependencies: ["StreamsDemos", "Streams"], path: "Examples/StreamsDemo"),
        .executableTarget(name: "launch-demo", dependencies: ["StreamsDemos"], path: "Examples/LaunchDemo"),
        .executableTarget(name: "item-list-demo", dependencies: ["StreamsDemos"], path: "Examples/ItemListDemo"),
        .executableTarget(name: "force-update-demo", dependencies: ["StreamsDemos"], path: "Examples/ForceUpdateDemo"),
        .executableTarget(name: "group-comments-demo", dependencies: ["StreamsDemos"], path: "Examples/GroupCommentsDemo"),
        // A command-line tool using StreamsBlocking alone; StreamsBlockingLinkTests checks it links no XCTest.
        .executableTarget(name: "blocking-demo", dependencies: ["StreamsBlocking"], path: "Examples/BlockingDemo"),
        // Started by STREAMS_INSPECTOR=1 alone (InspectorLinkTests runs it with and without).
        .executableTarget(name: "inspector-environment-demo", dependencies: ["Streams", "StreamsInspector"], path: "Examples/InspectorEnvironmentDemo"),
        .executableTarget(name: "firebase-test-server", dependencies: ["ConfigFeaturesTestServer"], path: "Examples/FirebaseTestServerTool"),
        .executableTarget(name: "local-first-writer", dependencies: ["ConfigFeatures", "Streams"], path: "Examples/LocalFirstWriter"),
        // Signs in with FirebaseAuth against an Auth emulator and writes the ID token to a file (firebase-admin-check.sh verifies it).
        // Evaluates a Remote Config server template for JSON-line contexts (firebase-admin-check.sh compares it with firebase-admin).
        .executableTarget(name: "server-template-eval", dependencies: ["ConfigFeatures", "Streams", "StreamsBlocking"], path: "Examples/ServerTemplateEval"),
        .executableTarget(name: "auth-token-demo", dependencies: ["ConfigFeatures", "Streams", "StreamsBlocking"], path: "Examples/AuthTokenDemo"),
        .target(
            name: "StreamsBenchmarks", dependencies: ["Streams", "StreamsInspector", "ConfigFeatures", "ConfigFeaturesTestServer"],
            path: "Benchmarks/StreamsBenchmarks"),
        .executableTarget(name: "streams-bench", dependencies: ["StreamsBenchmarks"], path: "Benchmarks/StreamsBench"),
        // Writes the fixed-arity sources (`swift run streams-codegen`); depends on nothing.
        .executableTarget(name: "streams-codegen", path: "Sources/StreamsCodegen"),
        // The docs' executable marble diagrams, and the tool that draws them (`swift run streams-diagrams`).
        .target(name: "StreamsDiagrams", dependencies: ["Streams", "StreamsTest"]),
        .executableTarget(name: "streams-diagrams", dependencies: ["StreamsDiagrams"], path: "Sources/StreamsDiagramsTool"),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsInspector", "StreamsTest", "StreamsDiagrams"]),
        .testTarget(name: "StreamsInspectorTests", dependencies: ["StreamsInspector", "Streams", "StreamsTest"]),
        .testTarget(name: "StreamsCocoaTests", dependencies: ["StreamsCocoa", "StreamsTest"]),
        .testTarget(name: "StreamsTestTests", dependencies: ["Streams", "StreamsTest", "StreamsTimeline", "StreamsDiagrams"]),
        .testTarget(name: "StreamsDiagramsTests", dependencies: ["StreamsDiagrams", "Streams", "StreamsTest"]),
        .testTarget(name: "StreamsBenchmarksTests", dependencies: ["StreamsBenchmarks", "Streams", "StreamsInspector", "StreamsTest"]),
        .testTarget(name: "ConfigFeaturesTests", dependencies: ["ConfigFeatures", "Streams", "StreamsInspector", "StreamsTest", "StreamsDiagrams"]),
        .testTarget(
            name: "StreamsDemosTests",
            dependencies: ["StreamsDemos", "ConfigFeatures", "ConfigFeaturesTestServer", "Streams", "StreamsInspector", "StreamsTest"]),
        .testTarget(name: "NetworkingTests", dependencies: ["ConfigFeatures", "ConfigFeaturesTestServer", "Streams", "StreamsTest"]),
    ],
    swiftLanguageModes: [.v6]
)
