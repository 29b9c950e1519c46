// swift-tools-version:6.0
// The fuzz targets of Streams (issue 17): one libFuzzer executable per parser of untrusted
// input, each using only the public API of the root package. A package of its own, so that the
// root package stays dependency-free and its `swift build` never sees these targets.
//
// Build and run them with `Fuzz/run.sh` (see Guides/Testing.md, "Fuzzing"); the sanitizers
// come from the command line (`--sanitize=fuzzer --sanitize=address`) so that the root
// package's modules, where the parsers are, are instrumented too.
import PackageDescription

/// The root package, by path. SwiftPM names a path dependency after its folder (`fuzzers`,
/// `main`, whatever the clone is called); giving it the name `Streams` here lets the targets
/// refer to it the same way from any checkout.
let root = "Streams"

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: root) }
    )
}

let package = Package(
    name: "StreamsFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: root, path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport"),
        fuzzTarget("FuzzServerSentEvents", ["ConfigFeatures"]),
        fuzzTarget("FuzzRemoteConfigFetch", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzRemoteConfigRealtime", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzDatabaseREST", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzDatabaseStream", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzDatabasePath", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzJSONValue", ["ConfigFeatures"]),
        fuzzTarget("FuzzAppVersion", ["ConfigFeatures"]),
        fuzzTarget("FuzzMarbles", ["StreamsTest"]),
        fuzzTarget("FuzzRemoteConfigStorage", ["ConfigFeatures"]),
        fuzzTarget("FuzzLocalFirstPersistence", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzItemList", ["ConfigFeatures", "StreamsTest"]),
        fuzzTarget("FuzzTestServerHTTP", ["ConfigFeatures", "ConfigFeaturesTestServer"]),
        fuzzTarget("FuzzDatabaseRules", ["ConfigFeatures", "ConfigFeaturesTestServer"]),
        fuzzTarget("FuzzRemoteConfigConditions", ["ConfigFeatures", "StreamsTest"]),
    ],
    swiftLanguageModes: [.v6]
)
