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
import StreamsDemos

exit(DemoCommand.run(demo: nil, arguments: Array(CommandLine.arguments.dropFirst())))
