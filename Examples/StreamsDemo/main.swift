// Runs the feature demos, all in a row or one by name. By default they run their scripted
// storylines on the embedded in-memory backends; they can also run over HTTP against an
// in-process loopback server, or live against your own Firebase project.
//
//   swift run streams-demo                          every demo, embedded backends
//   swift run streams-demo <name> …                 the named demos (launch, item-list,
//                                                   force-update, group-comments)
//   swift run streams-demo --list                   the demos and every option (also --help, -h)
//   swift run streams-demo --local-server           the same storylines over HTTP/SSE against
//                                                   a FirebaseTestServer on 127.0.0.1
//   swift run streams-demo --remote-config-project <project-number> --api-key <key> \
//       [--app-id <app-id>] [--remote-config-url URL] [--remote-config-realtime-url URL]
//       [--installations-url URL]
//                                                   the Remote Config demos, live
//   swift run streams-demo --database-url https://<db>.firebaseio.com \
//       [--auth-token <id-token> | --access-token <oauth-token>]
//                                                   the group comments demo, live
//   … --duration 60                                 how long live demos listen (default 20 s)
//   … --timeline streams.html                       record the streams with the inspector and
//                                                   write their timeline as an HTML page
//
// Live demos print what the project holds for their keys, then every realtime update or
// database change until --duration passes; a demo whose backend was not given runs on the
// embedded one and says so. Secrets are never printed. Bad arguments exit with status 2.
// Keys, paths and value shapes: Guides/Networking.md ("Running the demos against your project").
import Foundation
import Streams
import StreamsDemos

let options: DemoOptions
do {
    options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("streams-demo: \(error)\n".utf8))
    exit(2)
}
if options.showsHelp {
    print(DemoOptions.usage)
    exit(0)
}
let backends: DemoBackends
do {
    backends = try DemoBackends(options: options)
} catch {
    FileHandle.standardError.write(Data("streams-demo: \(error)\n".utf8))
    exit(1)
}
if options.timelinePath != nil { Inspector.start() }
DemoCatalog.run(options, on: backends)
backends.stop()
if let path = options.timelinePath {
    Inspector.stop()
    do {
        try Inspector.exportHTML(title: "streams-demo timeline").write(toFile: path, atomically: true, encoding: .utf8)
        print("streams-demo: wrote the timeline of \(Inspector.snapshot().chains.count) chain(s) to \(path)")
    } catch {
        FileHandle.standardError.write(Data("streams-demo: cannot write the timeline to \(path): \(error)\n".utf8))
        exit(1)
    }
}
