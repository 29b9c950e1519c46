// This file imports StreamsCocoa alone, on purpose: it compiles only while `import StreamsCocoa`
// also imports Streams, Foundation and (where `URLSession` lives there) FoundationNetworking, as
// `import RxCocoa` does. Used by CocoaExportsTests.
import StreamsCocoa

/// A request and its `URLSession.rx` observable, named without importing anything else.
func requestNamingCocoaTypes() -> (URLRequest, Observable<Data>) {
    let request = URLRequest(url: URL(string: "https://example.com/search?q=rx")!, timeoutInterval: TimeInterval(5))
    return (request, URLSession.shared.rx.data(request: request))
}
