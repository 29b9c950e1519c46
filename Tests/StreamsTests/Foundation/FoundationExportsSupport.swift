// This file imports Streams alone, on purpose: it compiles only while `import Streams` also
// imports Foundation (and, where URLSession lives there, FoundationNetworking), as
// `import RxCocoa` does on Apple platforms. Used by FoundationExportsTests.
import Streams

/// A request built from Foundation types named without importing Foundation.
func requestNamingFoundationTypes() -> (URLRequest, Observable<Data>) {
    let request = URLRequest(url: URL(string: "https://example.com/search?q=rx")!, timeoutInterval: TimeInterval(5))
    return (request, URLSession.shared.rx.data(request: request))
}

/// An `NSError` as RxSwift sample code makes them, named without importing Foundation.
func errorNamingFoundationTypes() -> Observable<Int> {
    .error(NSError(domain: "Example", code: -1, userInfo: [NSLocalizedDescriptionKey: "failed"]))
}
