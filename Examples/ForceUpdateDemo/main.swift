import Foundation
import StreamsDemos

// The force-update demo alone, with the options of `streams-demo` that apply to it (`--help` lists them):
//   swift run force-update-demo                 the scripted storyline, embedded backends
//   swift run force-update-demo --local-server  the same over HTTP against a loopback server
// Unknown options and arguments exit with status 2.
exit(DemoCommand.run(demo: "force-update", arguments: Array(CommandLine.arguments.dropFirst())))
