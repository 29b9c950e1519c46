import ConfigFeaturesTestServer
import XCTest

final class NetworkingModuleTests: XCTestCase {
    func testModule_links() {
        XCTAssertEqual(String(describing: ConfigFeaturesTestServerModule.self), "ConfigFeaturesTestServerModule")
    }
}
