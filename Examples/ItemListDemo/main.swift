import Foundation
import StreamsDemos

// The item-list demo alone, with the options of `streams-demo` that apply to it (`--help` lists them):
//   swift run item-list-demo                 the scripted storyline, embedded backends
//   swift run item-list-demo --local-server  the same over HTTP against a loopback server
// Unknown options and arguments exit with status 2.
exit(DemoCommand.run(demo: "item-list", arguments: Array(CommandLine.arguments.dropFirst())))
