import Foundation

/// One demo of `streams-demo`: its name on the command line, a summary, and how to run it.
public struct DemoCatalogEntry: Sendable {
    /// The name on the command line (`launch`, `item-list`, …).
    public let name: String
    /// One line for `--list`.
    public let summary: String
    /// Runs the demo on `backends` and returns when it is done.
    public let run: @Sendable (DemoBackends) -> Void
}

/// The demos of `streams-demo`, in the order they run.
public enum DemoCatalog {
    /// Every demo, in `DemoOptions.demoNames` order.
    public static let all: [DemoCatalogEntry] = [
        DemoCatalogEntry(
            name: "launch", summary: "seed 000: config behind the splash, with a timeout and both loading strategies",
            run: { runLaunchDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "item-list", summary: "seed 001: a config-driven JSON item list on Action (isLoading, errors)",
            run: { runItemListDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "force-update", summary: "seed 002: a live required_version update forces an app update",
            run: { runForceUpdateDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "group-comments", summary: "seed 004: follow a user's changing chat groups and merge their comments",
            run: { runGroupCommentsDemo(backends: $0) }),
    ]

    /// The demo called `name`, if any.
    public static func entry(named name: String) -> DemoCatalogEntry? {
        all.first { $0.name == name }
    }

    /// Runs the demos `options` selects on `backends`, each under a `━━ name: summary ━━`
    /// header (preceded, when not every backend is embedded, by the backends' summary).
    public static func run(_ options: DemoOptions, on backends: DemoBackends) {
        if !backends.isEmbedded {
            print(backends.summary)
            print("")
        }
        let selected = options.selectedDemoNames.compactMap(entry(named:))
        for (index, demo) in selected.enumerated() {
            if index > 0 { print("") }
            print("━━ \(demo.name): \(demo.summary) ━━")
            demo.run(backends)
        }
    }
}
