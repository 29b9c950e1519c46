// Fuzzes the Remote Config condition parser and evaluator through the public
// `InMemoryRemoteConfigBackend.publish(templateJSON:)`: a template with one condition whose
// expression is the input, then, when it publishes, a fetch of an instance described by the
// rest of the input (so the evaluator runs on fuzzed signals, versions and languages).
//
// Input: the expression, a zero byte, a value used as the app version, the language and every
// custom signal and user property.
// Checks: a refused expression throws `RemoteConfigTemplateError.invalidCondition` naming the
// condition, with a position inside the expression, and publishes nothing; an accepted one is
// answered with the parameter's conditional or default value, the same on a second fetch,
// within the time libFuzzer allows (the `matches` regular expressions run in linear time).
import ConfigFeatures
import Foundation
import FuzzSupport
import StreamsTest

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = FuzzInput(data, size).parts(2)
    let expression = String(decoding: parts[0], as: UTF8.self)
    let value = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : "1.2.3"
    let template: JSONValue = [
        "conditions": [["name": "c", "expression": .string(expression)]],
        "parameters": ["p": ["defaultValue": ["value": "miss"], "conditionalValues": ["c": ["value": "hit"]]]],
    ]
    let scheduler = TestScheduler(initialClock: 0)
    let backend = InMemoryRemoteConfigBackend(values: ["p": "before"], scheduler: scheduler)
    do {
        try backend.publish(templateJSON: template.data())
    } catch {
        guard case .invalidCondition(let conditionError) = error else {
            require(false, "a template with one condition refused for another reason: \(error)")
            return 0
        }
        require(conditionError.condition == "c", "the error names \(conditionError.condition), not the condition")
        require(conditionError.position >= 0 && conditionError.position <= expression.count, "position \(conditionError.position) outside the expression")
        require(!conditionError.description.isEmpty, "an error without a description")
        require(backend.templateVersion == 1 && backend.values == ["p": "before"], "a refused template was published")
        return 0
    }
    let targeting = RemoteConfigTargeting(
        appID: "1:1:ios:a", appInstanceID: value, appInfo: RemoteConfigAppInfo(platform: .apple, appVersion: value, appBuild: value, languageCode: value),
        userProperties: ["x": value, "age": value], firstOpenTime: Date(timeIntervalSince1970: 1_700_000_000))
    let request = RemoteConfigFetchRequest(customSignals: ["x": value, "tier": value, "level": value], targeting: targeting)
    var answers: [String?] = []
    for _ in 0..<2 {
        var answer: String?
        let subscription = backend.fetch(request).subscribe(onNext: { response in
            if case .updated(let entries, _, _) = response { answer = entries["p"] }
        })
        scheduler.advanceTo(scheduler.clock + 1)
        subscription.dispose()
        answers.append(answer)
    }
    require(answers[0] == "hit" || answers[0] == "miss", "the fetch answered \(String(describing: answers[0]))")
    require(answers[0] == answers[1], "two fetches of the same instance disagree: \(answers)")
    return 0
}
