import Foundation
import Streams
import StreamsInspector

/// The `main` of the demo executables: `streams-demo` (every demo, or those named) and the
/// per-demo ones (`launch-demo`, `item-list-demo`, `force-update-demo`, `group-comments-demo`),
/// which take the same options where they apply.
public enum DemoCommand {
    /// Runs `streams-demo` (`demo` nil) or the executable of `demo` with `arguments` (without the
    /// program name), and returns its exit status: 0 when it ran or printed the help, 2 for bad
    /// arguments (the error on standard error), 1 when the backends cannot start or the timeline
    /// cannot be written.
    ///
    /// The demos print what a reader needs first: the introduction, the backends, then each demo
    /// under its `━━ name: summary ━━` header and why it matters (see `DemoCatalog.run`).
    public static func run(demo: String?, arguments: [String]) -> Int32 {
        let program = demo.map(DemoOptions.program(for:)) ?? "streams-demo"
        let options: DemoOptions
        do {
            options = try demo.map { demo throws(DemoOptionsError) in try DemoOptions.parse(arguments, demo: demo) } ?? DemoOptions.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
            return 2
        }
        if options.showsHelp {
            print(demo.map(DemoOptions.usage(demo:)) ?? DemoOptions.usage)
            return 0
        }
        #if !Inspector
        if options.timelinePath != nil {
            FileHandle.standardError.write(
                Data("\(program): --timeline needs the stream inspector, and Streams was built without its \"Inspector\" trait\n".utf8))
            return 1
        }
        #endif
        let backends: DemoBackends
        do {
            backends = try DemoBackends(options: options)
        } catch {
            FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
            return 1
        }
        #if Inspector
        if options.timelinePath != nil { Inspector.start() }
        #endif
        DemoCatalog.run(options, on: backends)
        backends.stop()
        #if Inspector
        guard let path = options.timelinePath else { return 0 }
        Inspector.stop()
        do {
            try Inspector.exportHTML(title: "\(program) timeline").write(toFile: path, atomically: true, encoding: .utf8)
            print("\(program): wrote the timeline of \(Inspector.snapshot().chains.count) chain(s) to \(path)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(program): cannot write the timeline to \(path): \(error)\n".utf8))
            return 1
        }
        #else
        return 0
        #endif
    }
}
