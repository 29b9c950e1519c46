import Foundation
import Streams
import StreamsTest
import XCTest

final class DecodeTests: XCTestCase {
    private struct Point: Decodable, Equatable {
        let x: Int
        let y: Int
    }

    private func data(_ string: String) -> Data { Data(string.utf8) }

    func testDecode_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, data(#"{"x":1,"y":2}"#)), .next(220, data(#"{"x":3,"y":4}"#)), .completed(300)])
            let res = scheduler.start { xs.decode(type: Point.self, decoder: JSONDecoder()) }
            XCTAssertEqual(res.events, [.next(210, Point(x: 1, y: 2)), .next(220, Point(x: 3, y: 4)), .completed(300)])
        }
    }

    func testDecode_invalidDataFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, data(#"{"x":1,"y":2}"#)), .next(220, data("nope")), .completed(300)])
            let res = scheduler.start { xs.decode(type: Point.self, decoder: JSONDecoder()) }
            XCTAssertEqual(res.events.count, 2)
            XCTAssertEqual(res.events.first, .next(210, Point(x: 1, y: 2)))
            XCTAssertEqual(res.events.last?.time, 220)
            XCTAssertTrue(res.events.last?.value.error is DecodingError)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDecode_emptyNeverError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.completed(250, Data.self)])
            let never = scheduler.createHotObservable([Recorded<Event<Data>>]())
            let failing = scheduler.createHotObservable([.error(250, TransformTestError(), Data.self)])
            let a = scheduler.createObserver(Point.self)
            let b = scheduler.createObserver(Point.self)
            let c = scheduler.createObserver(Point.self)
            let subscriptions = [
                empty.decode(type: Point.self, decoder: JSONDecoder()).subscribe(a),
                never.decode(type: Point.self, decoder: JSONDecoder()).subscribe(b),
                failing.decode(type: Point.self, decoder: JSONDecoder()).subscribe(c),
            ]
            scheduler.start()
            subscriptions.forEach { $0.dispose() }
            XCTAssertEqual(a.events, [.completed(250)])
            XCTAssertEqual(b.events, [])
            XCTAssertEqual(c.events, [.error(250, TransformTestError())])
        }
    }

    func testDecode_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, data(#"{"x":1,"y":2}"#)), .next(260, data(#"{"x":3,"y":4}"#))])
            let res = scheduler.start(disposed: 250) { xs.decode(type: Point.self, decoder: JSONDecoder()) }
            XCTAssertEqual(res.events, [.next(210, Point(x: 1, y: 2))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDecode_customDecoder() {
        struct Fixed: DataDecoder {
            func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
                try JSONDecoder().decode(type, from: Data(#"{"x":0,"y":0}"#.utf8))
            }
        }
        XCTAssertNoLeaks {
            let (events, subscription) = collectEvents(Observable.just(Data()).decode(type: Point.self, decoder: Fixed()))
            subscription.dispose()
            XCTAssertEqual(events, [.next(Point(x: 0, y: 0)), .completed])
        }
    }
}
