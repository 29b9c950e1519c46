import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The Admin API paths firebase-admin's `auth` module calls in emulator mode, the emulator's own
/// endpoints, and the Swift API's typed errors.
final class FirebaseTestServerAuthAdminTests: FirebaseTestServerAuthTestCase {
    func testCreateLookupUpdateDelete() throws {
        let created = try admin("POST", "", json: ["localId": "ann", "email": "ann@example.com", "password": "secret1", "displayName": "Ann"])
        XCTAssertEqual(created.status, 200, created.text)
        XCTAssertEqual(created.json?["localId"], "ann")
        let anonymous = try admin("POST", "", json: [:])
        XCTAssertEqual(anonymous.json?["localId"]?.stringValue?.count, 28)

        let byEmail = try admin("POST", ":lookup", json: ["email": ["ANN@example.com"]])
        let record = try XCTUnwrap(byEmail.json?["users"]?[0])
        XCTAssertEqual(record["localId"], "ann")
        XCTAssertEqual(record["displayName"], "Ann")
        XCTAssertEqual(record["disabled"], false)
        XCTAssertEqual(record["providerUserInfo"]?[0]?["providerId"], "password")
        XCTAssertNotNil(record["createdAt"]?.stringValue.flatMap { Int64($0) })
        XCTAssertFalse(byEmail.text.contains("secret1"))
        XCTAssertNil(try admin("POST", ":lookup", json: ["localId": ["nobody"]]).json?["users"], "no users member when none matches")

        let updated = try admin(
            "POST", ":update", json: ["localId": "ann", "disableUser": true, "customAttributes": #"{"role":"admin"}"#, "displayName": "Ann B"])
        XCTAssertEqual(updated.json, ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": "ann"])
        XCTAssertEqual(server.user(uid: "ann")?.isDisabled, true)
        XCTAssertEqual(server.user(uid: "ann")?.customClaims, ["role": "admin"])
        XCTAssertEqual(server.user(uid: "ann")?.displayName, "Ann B")
        let lookedUp = try admin("POST", ":lookup", json: ["localId": ["ann"]]).json?["users"]?[0]
        XCTAssertEqual(lookedUp?["customAttributes"], #"{"role":"admin"}"#)
        XCTAssertEqual(lookedUp?["disabled"], true)
        XCTAssertEqual(
            errorMessage(try admin("POST", ":update", json: ["localId": "ann", "customAttributes": #"{"iss":"x"}"#])),
            "FORBIDDEN_CLAIM : iss is a reserved claim")
        XCTAssertEqual(errorMessage(try admin("POST", ":update", json: ["localId": "nobody"])), "USER_NOT_FOUND")

        XCTAssertEqual(try admin("POST", ":delete", json: ["localId": "ann"]).json, ["kind": "identitytoolkit#DeleteAccountResponse"])
        XCTAssertNil(server.user(uid: "ann"))
        XCTAssertEqual(errorMessage(try admin("POST", ":delete", json: ["localId": "ann"])), "USER_NOT_FOUND")
    }

    func testCreate_errors() throws {
        try server.createUser(email: "ann@example.com", password: "secret1")
        XCTAssertEqual(errorMessage(try admin("POST", "", json: ["email": "ann@example.com", "password": "secret1"])), "EMAIL_EXISTS")
        XCTAssertEqual(
            errorMessage(try admin("POST", "", json: ["email": "x@example.com", "password": "123"])), "WEAK_PASSWORD : Password should be at least 6 characters"
        )
        XCTAssertEqual(errorMessage(try admin("POST", "", json: ["email": "nope"])), "INVALID_EMAIL")
        _ = try admin("POST", "", json: ["localId": "u1"])
        XCTAssertEqual(errorMessage(try admin("POST", "", json: ["localId": "u1"])), "DUPLICATE_LOCAL_ID")
        let unauthenticated = try admin("POST", "", json: [:], bearer: nil)
        XCTAssertEqual(unauthenticated.status, 401)
        let otherProject = try client.send(
            "POST", URL(string: "\(server.baseURL)/identitytoolkit.googleapis.com/v1/projects/other/accounts")!, json: [:],
            headers: ["Authorization": "Bearer owner"])
        XCTAssertEqual(otherProject.status, 403)
        XCTAssertEqual(server.authUsers.count, 2)
    }

    func testBatchGet_pagesThroughEveryUserInUIDOrder() throws {
        for index in 0..<5 { try server.createUser(FirebaseTestServer.NewAuthUser(uid: "u\(index)")) }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let query = "?maxResults=2" + (token.map { "&nextPageToken=\($0)" } ?? "")
            let page = try admin("GET", ":batchGet", query: query)
            XCTAssertEqual(page.status, 200, page.text)
            seen += (page.json?["users"]?.arrayValue ?? []).compactMap { $0["localId"]?.stringValue }
            token = page.json?["nextPageToken"]?.stringValue
            pages += 1
        } while token != nil && pages < 10
        XCTAssertEqual(seen, ["u0", "u1", "u2", "u3", "u4"])
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(errorMessage(try admin("GET", ":batchGet", query: "?maxResults=0")), "INVALID_PAGE_SELECTION")
    }

    func testBatchDelete_keepsEnabledUsersUnlessForced() throws {
        try server.createUser(FirebaseTestServer.NewAuthUser(uid: "a"))
        try server.createUser(FirebaseTestServer.NewAuthUser(uid: "b", disabled: true))
        let result = try admin("POST", ":batchDelete", json: ["localIds": ["a", "b"], "force": false])
        XCTAssertEqual(result.json?["errors"]?[0]?["localId"], "a")
        XCTAssertEqual(result.json?["errors"]?[0]?["index"], 0)
        XCTAssertEqual(server.authUsers.map(\.uid), ["a"])
        XCTAssertNil(try admin("POST", ":batchDelete", json: ["localIds": ["a"], "force": true]).json?["errors"])
        XCTAssertTrue(server.authUsers.isEmpty)
    }

    func testEmulatorEndpoints_clearAccountsAndConfig() throws {
        try server.createUser(email: "ann@example.com", password: "secret1")
        let refreshToken = try XCTUnwrap(signIn("ann@example.com", "secret1")["refreshToken"]?.stringValue)
        let cleared = try client.send("DELETE", URL(string: "\(server.baseURL)/emulator/v1/projects/demo-project/accounts")!)
        XCTAssertEqual(cleared.status, 200)
        XCTAssertTrue(server.authUsers.isEmpty)
        XCTAssertEqual(errorMessage(try refresh("grant_type=refresh_token&refresh_token=\(refreshToken)")), "INVALID_REFRESH_TOKEN")
        let config = try client.send("GET", URL(string: "\(server.baseURL)/emulator/v1/projects/demo-project/config")!)
        XCTAssertEqual(config.json?["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"], true)
    }

    // MARK: Swift API

    func testSwiftAPI_typedErrorsNeverCrash() throws {
        let uid = try server.createUser(email: "ann@example.com", password: "secret1")
        XCTAssertEqual(uid.count, 28)
        func error(_ body: () throws -> Void) -> FirebaseTestServerAuthError? {
            do {
                try body()
                return nil
            } catch {
                return error as? FirebaseTestServerAuthError
            }
        }
        XCTAssertEqual(error { try server.createUser(email: "ann@example.com", password: "secret1") }, .emailExists("ann@example.com"))
        XCTAssertEqual(error { try server.createUser(email: "nope", password: "secret1") }, .invalidEmail("nope"))
        XCTAssertEqual(error { try server.createUser(email: "b@example.com", password: "123") }, .weakPassword)
        XCTAssertEqual(error { try server.createUser(email: "b@example.com", password: nil) }, .incompleteCredentials)
        XCTAssertEqual(error { try server.createUser(FirebaseTestServer.NewAuthUser(uid: uid)) }, .uidExists(uid))
        XCTAssertEqual(error { try server.createUser(FirebaseTestServer.NewAuthUser(uid: "")) }, .invalidUID(""))
        XCTAssertEqual(error { try server.setUserDisabled(true, uid: "nobody") }, .userNotFound(uid: "nobody"))
        XCTAssertFalse(server.disableUser(uid: "nobody"), "an unknown uid changes nothing")
        XCTAssertEqual(error { try server.deleteUser(uid: "nobody") }, .userNotFound(uid: "nobody"))
        XCTAssertEqual(error { try server.revokeRefreshTokens(uid: "nobody") }, .userNotFound(uid: "nobody"))
        XCTAssertEqual(server.authUsers.count, 1)
        XCTAssertFalse(FirebaseTestServerAuthError.weakPassword.description.contains("123"))
        let anonymous = try server.createUser(email: nil, password: nil)
        XCTAssertEqual(server.user(uid: anonymous)?.hasPassword, false)
    }

    func testLoadAuthUsers_createsAllOrNone() throws {
        let uids = try server.loadAuthUsers(
            json: Data(
                #"[{"uid": "ann", "email": "ann@example.com", "password": "secret1", "customClaims": {"role": "admin"}}, {"uid": "anon"}, {"email": "c@example.com", "password": "secret3", "disabled": true}]"#
                    .utf8))
        XCTAssertEqual(uids.prefix(2), ["ann", "anon"])
        XCTAssertEqual(server.user(uid: "ann")?.customClaims, ["role": "admin"])
        XCTAssertEqual(server.authUsers.last?.isDisabled, true)
        XCTAssertThrowsError(try server.loadAuthUsers(json: Data(#"[{"uid": "new"}, {"email": "ann@example.com", "password": "hunter22"}]"#.utf8))) { error in
            XCTAssertEqual(
                "\(error)", "the user list (user at index 1): another user has the email ann@example.com (EMAIL_EXISTS)")
            XCTAssertFalse("\(error)".contains("hunter22"))
        }
        XCTAssertNil(server.user(uid: "new"), "no user of a refused list is created")
        XCTAssertThrowsError(try server.loadAuthUsers(json: Data(#"{"uid": "x"}"#.utf8))) { error in
            XCTAssertEqual("\(error)", "the user list: expected a JSON array of user objects")
        }
        XCTAssertThrowsError(try server.loadAuthUsers(json: Data(#"[{"name": "x"}]"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains(#"unknown field "name""#), "\(error)")
        }
        XCTAssertThrowsError(try server.loadAuthUsers(json: Data(#"[{"disabled": "yes"}]"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("wrong type"), "\(error)")
        }
        XCTAssertFalse(FirebaseTestServer.NewAuthUser(email: "a@b.c", password: "hunter22").description.contains("hunter22"))
    }
}
