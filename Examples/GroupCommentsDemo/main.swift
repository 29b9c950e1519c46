import Foundation
import StreamsDemos

// The group-comments demo alone, with the options of `streams-demo` that apply to it (`--help` lists them):
//   swift run group-comments-demo                 the scripted storyline, embedded backends
//   swift run group-comments-demo --local-server  the same over HTTP against a loopback server
// Unknown options and arguments exit with status 2.
exit(DemoCommand.run(demo: "group-comments", arguments: Array(CommandLine.arguments.dropFirst())))
