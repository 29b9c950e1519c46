import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// The session across launches (``FileFirebaseAuthStorage``), a corrupt file, an unwritable one.
final class FirebaseAuthPersistenceTests: FirebaseAuthTestCase {
    func testFileStorage_keepsTheSessionAcrossLaunches_ownerOnly() throws {
        let file = try temporaryFolder().appendingPathComponent("nested/auth-session.json")
        let scheduler = makeScheduler()
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let first = makeAuth(scheduler, transport, storage: try FileFirebaseAuthStorage(fileURL: file))
        let user = try signIn(first, transport, scheduler, at: 100)

        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        XCTAssertEqual(leftovers, ["auth-session.json"], "no temporary file is left behind")

        // The next launch: signed in at once, with the stored (still fresh) token.
        let second = makeAuth(scheduler, transport, storage: try FileFirebaseAuthStorage(fileURL: file))
        XCTAssertEqual(second.currentUser, user)
        XCTAssertNil(second.storageError)
        let states = scheduler.createObserver(FirebaseUser?.self)
        _ = second.authState.subscribe(states)
        XCTAssertEqual(states.events, [.next(100, user)])
        XCTAssertEqual(try value(of: second.idToken(), at: 200, on: scheduler), Self.idToken())
        XCTAssertEqual(transport.sentRequests.count, 1)

        // Expired by the next launch: refreshed with the stored refresh token, and saved.
        transport.reply(Self.refreshAnswer(idToken: Self.idToken(serial: 2)))
        XCTAssertEqual(try value(of: second.idToken(), at: 10_000, on: scheduler), Self.idToken(serial: 2))
        XCTAssertEqual(
            transport.sentRequests.last?.request.body.map { String(decoding: $0, as: UTF8.self) }, "grant_type=refresh_token&refresh_token=refresh-token-1")
        let stored = try XCTUnwrap(try FileFirebaseAuthStorage(fileURL: file).load())
        XCTAssertEqual(stored.idToken, Self.idToken(serial: 2))
        XCTAssertEqual(stored.refreshToken, "refresh-token-2")
        XCTAssertEqual(stored.idTokenExpiry, Date(timeIntervalSince1970: 10_000 + 3600))

        second.signOut()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertNil(makeAuth(scheduler, transport, storage: try FileFirebaseAuthStorage(fileURL: file)).currentUser)
    }

    func testFileStorage_roundTripsEveryField() throws {
        let file = try temporaryFolder().appendingPathComponent("s.json")
        let storage = try FileFirebaseAuthStorage(fileURL: file)
        XCTAssertNil(try storage.load(), "no file: no session")
        for user in [FirebaseUser(uid: "u", isAnonymous: true), FirebaseUser(uid: "ü/ñ \"q\"", isAnonymous: false, email: "a@b.c")] {
            let session = FirebaseAuthSession(user: user, refreshToken: "r", idToken: "i", idTokenExpiry: Date(timeIntervalSince1970: 1_234_567.5))
            try storage.save(session)
            XCTAssertEqual(try storage.load(), session)
        }
        try storage.remove()
        try storage.remove()  // twice: nothing to remove is no error
        XCTAssertNil(try storage.load())
    }

    func testACorruptFile_isATypedErrorWhereItIsOpened_neverACrash() throws {
        let folder = try temporaryFolder()
        let bodies = [
            "", "{", "[]", "null", #"{"version": 2}"#, #"{"version": 1, "uid": "u"}"#,
            #"{"version": 1, "uid": "u", "isAnonymous": false, "refreshToken": "SECRET-r", "idToken": "SECRET-i", "idTokenExpiry": "soon"}"#,
            #"{"version": 1, "uid": "u", "isAnonymous": false, "refreshToken": "SECRET-r", "idToken": "SECRET-i", "idTokenExpiry": 5, "email": 3}"#,
            String(repeating: "[", count: 100_000),
        ]
        for (index, body) in bodies.enumerated() {
            let file = folder.appendingPathComponent("corrupt-\(index).json")
            try Data(body.utf8).write(to: file)
            XCTAssertThrowsError(try FileFirebaseAuthStorage(fileURL: file), body) { error in
                guard case .corrupt(let message)? = error as? FirebaseAuthStorageError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.hasPrefix("corrupt-\(index).json"), message)
                XCTAssertFalse("\(error)".contains("SECRET"), "\(error)")
            }
        }
        // Opened without the check, a corrupt file leaves the client signed out, says why, and
        // is left alone (not deleted) until a sign-in replaces it.
        let file = folder.appendingPathComponent("corrupt-1.json")
        let (scheduler, transport, auth) = makeFixture(storage: FileFirebaseAuthStorage(uncheckedFileURL: file))
        XCTAssertNil(auth.currentUser)
        guard case .corrupt(let message)? = auth.storageError else { return XCTFail("\(String(describing: auth.storageError))") }
        XCTAssertEqual(message, "corrupt-1.json is not JSON")
        auth.signOut()
        XCTAssertEqual(try Data(contentsOf: file), Data("{".utf8))
        try signIn(auth, transport, scheduler)
        XCTAssertNil(auth.storageError)
        XCTAssertEqual(try FileFirebaseAuthStorage(fileURL: file).load()?.user.uid, "uid-1")
    }

    func testAnUnwritableStorage_keepsTheSessionInMemory_andSaysWhy() throws {
        let folder = try temporaryFolder()
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let (scheduler, transport, auth) = makeFixture(storage: try FileFirebaseAuthStorage(fileURL: blocker.appendingPathComponent("session.json")))
        let user = try signIn(auth, transport, scheduler)
        XCTAssertEqual(auth.currentUser, user)
        guard case .io? = auth.storageError else { return XCTFail("\(String(describing: auth.storageError))") }
    }
}
