import Foundation
import StreamsDemos

// The launch demo alone, with the options of `streams-demo` that apply to it (`--help` lists them):
//   swift run launch-demo                 the scripted storyline, embedded backends
//   swift run launch-demo --local-server  the same over HTTP against a loopback server
// Unknown options and arguments exit with status 2.
exit(DemoCommand.run(demo: "launch", arguments: Array(CommandLine.arguments.dropFirst())))
