import XCTest
import StreamsCocoa
import StreamsTest

/// `import StreamsCocoa` re-exports Streams, Foundation and FoundationNetworking (see
/// CocoaExportsSupport.swift, which imports nothing else).
final class CocoaExportsTests: XCTestCase {
    func testImportStreamsCocoa_namesStreamsAndURLSessionTypes() {
        XCTAssertNoLeaks {
            let (request, data) = requestNamingCocoaTypes()
            XCTAssertEqual(request.url?.query, "q=rx")
            XCTAssertEqual(request.timeoutInterval, 5)
            // Built, never subscribed: nothing is sent.
            _ = data
        }
    }
}
