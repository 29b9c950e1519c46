// This file imports Streams alone, on purpose: it compiles only while `import Streams` also
// imports Foundation, as `import RxCocoa` does on Apple platforms. Used by
// FoundationExportsTests.
import Streams

/// A URL and a time interval, named without importing Foundation.
func urlNamingFoundationTypes() -> (URL, TimeInterval) {
    (URL(string: "https://example.com/search?q=rx")!, TimeInterval(5))
}

/// An `NSError` as RxSwift sample code makes them, named without importing Foundation.
func errorNamingFoundationTypes() -> Observable<Int> {
    .error(NSError(domain: "Example", code: -1, userInfo: [NSLocalizedDescriptionKey: "failed"]))
}
