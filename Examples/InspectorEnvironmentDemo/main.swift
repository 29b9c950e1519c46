// Records a small chain without calling `Inspector.start()`: run it with the inspector started by
// the environment,
//
//     STREAMS_INSPECTOR=1 swift run inspector-environment-demo
//
// and it prints the events the inspector logged for the stream labelled "answers"; without the
// variable it says that nothing was recorded. InspectorLinkTests (StreamsTestTests) runs it both ways.
import Streams
import StreamsInspector

#if Inspector
let answers = Observable.from([1, 2, 3]).map { $0 * 10 }.named("answers")
let subscription = answers.subscribe(onNext: { print("answer: \($0)") })
subscription.dispose()
print("recording: \(Inspector.isRecording)")
let logged = Inspector.events(labelled: "answers")
print("logged for \"answers\": \(logged.map { "\($0.kind.rawValue)(\($0.value ?? ""))" }.joined(separator: " "))")
print("chains: \(Inspector.snapshot().chains.count)")
#else
print("inspector-environment-demo: Streams was built without its \"Inspector\" trait: nothing is recorded")
#endif
