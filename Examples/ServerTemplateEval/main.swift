// server-template-eval: evaluates a Remote Config server template with ConfigFeatures'
// RemoteConfigServerTemplate for contexts read as JSON lines, for Scripts/firebase-admin-check.sh
// (which compares every answer with firebase-admin's ServerTemplate.evaluate).
//
//     server-template-eval --emulator-host 127.0.0.1:9000 [--project P] [--api-key K] [--defaults FILE] < contexts.jsonl
//     server-template-eval --template FILE [--defaults FILE] < contexts.jsonl
//
// The template is loaded from the test server (GET …/namespaces/firebase-server/serverRemoteConfig,
// loopback only) or read from FILE. Each input line is {"randomizationId": "…" or null,
// "signals": {"key": "value", …}}; each output line is {"key": {"value": "…", "source": "remote",
// "number": "1.5", "bool": true}, …} for every parameter and default (`number` is Swift's
// description of numberValue, so "nan" and "inf" survive JSON).
import ConfigFeatures
import Foundation
import Streams
import StreamsBlocking

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("server-template-eval: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard ["--emulator-host", "--project", "--api-key", "--defaults", "--template"].contains(name), !arguments.isEmpty else {
        fail("usage: server-template-eval (--emulator-host HOST:PORT | --template FILE) [--project P] [--api-key K] [--defaults FILE]")
    }
    options[name] = arguments.removeFirst()
}

var defaults: [String: String] = [:]
if let file = options["--defaults"] {
    do {
        guard let object = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: file))).objectValue else { fail("--defaults: not an object") }
        defaults = object.compactMapValues(\.stringValue)
    } catch {
        fail("--defaults \(file): \(error)")
    }
}

let template: RemoteConfigServerTemplate
if let file = options["--template"] {
    do {
        template = try RemoteConfigServerTemplate(json: Data(contentsOf: URL(fileURLWithPath: file)), defaults: defaults)
    } catch {
        fail("--template \(file): \(error)")
    }
} else if let host = options["--emulator-host"] {
    let parts = host.split(separator: ":")
    guard parts.count == 2, let port = Int(parts[1]) else { fail("--emulator-host expects HOST:PORT") }
    do {
        let endpoints = try FirebaseEndpoints.emulator(host: String(parts[0]), port: port)
        guard endpoints.isLocal else { fail("--emulator-host must be on this machine") }
        template = RemoteConfigServerTemplate(
            project: options["--project"] ?? "demo-project", apiKey: options["--api-key"] ?? "test-api-key", endpoints: endpoints, defaults: defaults)
        if case .failed(_, let error) = template.load().toBlocking(timeout: 30).materialize() { fail("loading the template: \(error)") }
    } catch {
        fail("loading the template: \(error)")
    }
} else {
    fail("give --emulator-host HOST:PORT or --template FILE")
}

while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    let context: JSONValue
    do {
        context = try JSONValue(parsing: line)
    } catch {
        fail("input line is not JSON: \(error)")
    }
    let signals = (context["signals"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
    let config = template.evaluate(randomizationID: context["randomizationId"]?.stringValue, customSignals: signals)
    var answer: [String: JSONValue] = [:]
    for (key, value) in config.values {
        answer[key] = [
            "value": .string(value.stringValue), "source": .string(value.source.rawValue), "number": .string("\(value.numberValue)"),
            "bool": .bool(value.boolValue),
        ]
    }
    FileHandle.standardOutput.write(Data((JSONValue.object(answer).serialized() + "\n").utf8))
}
