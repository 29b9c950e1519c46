import Foundation

/// One demo of `streams-demo`: its name on the command line, a summary, and how to run it.
public struct DemoCatalogEntry: Sendable {
    /// The name on the command line (`launch`, `item-list`, …).
    public let name: String
    /// One line for `--list` and the demo's header: what the storyline shows.
    public let summary: String
    /// Why it matters to an app, printed under the header.
    public let why: String
    /// Runs the demo on `backends` and returns when it is done.
    public let run: @Sendable (DemoBackends) -> Void
    /// `why` for the storyline `backends` make it run, when that differs (a section that only
    /// runs on the embedded backends, a live variant); nil: `why` always.
    var tailoredWhy: (@Sendable (DemoBackends) -> String)? = nil

    /// Why it matters, saying only what the demo shows on `backends` (the group comments'
    /// chat-scale section runs on the embedded database only, and its live variant is another
    /// storyline).
    public func why(on backends: DemoBackends) -> String {
        tailoredWhy?(backends) ?? why
    }
}

/// The group comments demo's reason, for what it runs on `database`.
private func groupCommentsWhy(on database: DemoBackends.DatabaseSelection) -> String {
    let listeners = """
        Joining or leaving a group adds or removes that group's database listener only (the others keep \
        theirs, nothing is fetched twice); a group that holds bad data is shown empty with a diagnostic
        """
    let scripted = """
        ; a comment posted offline shows at once and is sent on reconnection; an app that keeps its \
        database in files opens on its last comments with no network
        """
    let chatScale = """
        ; and a large group is followed through a window of its last comments, so a new comment costs the \
        window, not the whole history
        """
    switch database {
    case .embedded: return listeners + scripted + chatScale + "."
    case .localServer:
        return listeners + scripted
            + "; under the group chat's Security Rules each user reads only their groups, and a group a user is removed from leaves their stream"
            + " (the chat-scale section runs on the embedded database only)."
    case .project: return listeners + ", live: edit Users/user1 and Groups/<id> in your database and watch the listeners follow."
    }
}

/// The demos of `streams-demo`, in the order they run.
public enum DemoCatalog {
    /// Every demo, in `DemoOptions.demoNames` order.
    public static let all: [DemoCatalogEntry] = [
        DemoCatalogEntry(
            name: "launch", summary: "remote config behind the launch screen, with a timeout and two loading strategies",
            why: """
                An app reads its texts and switches from Remote Config at launch. The splash stays up until the \
                config is known, but never longer than the timeout: a slow or failed network falls back to the \
                values kept from the last launch, and what a late fetch brings is kept for the next one.
                """,
            run: { runLaunchDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "item-list", summary: "a list of items read from a JSON config value, loaded by an Action",
            why: """
                A refresh button bound to an Action: a HUD while it loads, a second tap refused while one is \
                running, and a broken server value reported as a typed error while the list keeps its last good \
                items; then a list the template targets at a custom signal the app sends.
                """,
            run: { runItemListDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "force-update", summary: "a required version published while the app runs forces an update alert",
            why: """
                The app follows Remote Config's realtime updates; an update that does not touch the version key \
                changes nothing, and one that raises required_version above the running version (a template \
                with a value per platform) shows an alert the user cannot dismiss, at once, without a relaunch.
                """,
            run: { runForceUpdateDemo(backends: $0) }),
        DemoCatalogEntry(
            name: "group-comments", summary: "the comments of every chat group a user is in, merged, as groups change",
            why: groupCommentsWhy(on: .embedded),
            run: { runGroupCommentsDemo(backends: $0) },
            tailoredWhy: { groupCommentsWhy(on: $0.database) }),
    ]

    /// The demo called `name`, if any.
    public static func entry(named name: String) -> DemoCatalogEntry? {
        all.first { $0.name == name }
    }

    /// What a reader needs before the first storyline: what runs, on what, and how to read a line.
    public static let introduction = """
        Four features of a shopping app, each a view model built on Streams, play a scripted storyline \
        against a stand-in for Firebase. Each line starts with the time since its storyline started \
        ([+\u{00A0}157\u{00A0}ms]), then something a view model's outputs did or a scripted step of \
        the storyline (a tap, a server change).
        """

    /// Runs the demos `options` selects on `backends`, each under a `━━ name: summary ━━`
    /// header and its reason, after the introduction and, when not every backend is embedded, the
    /// backends' summary.
    public static func run(_ options: DemoOptions, on backends: DemoBackends) {
        print(wrapped(introduction))
        print(backends.isEmbedded ? "Backends: embedded in-memory Remote Config and Realtime Database (no network)." : backends.summary)
        let selected = options.selectedDemoNames.compactMap(entry(named:))
        for demo in selected {
            print("")
            print("━━ \(demo.name): \(demo.summary) ━━")
            print(wrapped(demo.why(on: backends)))
            demo.run(backends)
        }
    }

    /// `text` broken into lines of at most `width` characters, at spaces (not at no-break spaces).
    package static func wrapped(_ text: String, width: Int = 100) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
