import XCTest
import Streams
import StreamsTest

/// `import Streams` re-exports Foundation (see FoundationExportsSupport.swift, which imports
/// nothing else; if the re-export goes, the test target stops compiling).
final class FoundationExportsTests: XCTestCase {
    func testImportStreams_namesFoundationTypes() {
        XCTAssertNoLeaks {
            let (url, timeout) = urlNamingFoundationTypes()
            XCTAssertEqual(url.query, "q=rx")
            XCTAssertEqual(timeout, 5)

            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { errorNamingFoundationTypes() }
            XCTAssertEqual(res.events.count, 1)
            XCTAssertEqual((res.events.first?.value.error as NSError?)?.localizedDescription, "failed")
        }
    }
}
