import ConfigFeatures
import Foundation

extension ServerState {
    /// The credential a database request presents: `auth=`, `access_token=` or
    /// `Authorization: Bearer <token>`.
    static func databaseToken(_ request: HTTPRequest) -> String? {
        if let token = request.query("auth") ?? request.query("access_token") { return token }
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") else { return nil }
        let token = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Who the request is verified as: the admin for `owner`, the user of a valid ID token of
    /// this server; `nil` otherwise.
    func databaseAuth(of request: HTTPRequest) -> FirebaseTestServer.RequestAuth? {
        guard let token = Self.databaseToken(request), !database.revokedTokens.contains(token) else { return nil }
        if token == FirebaseTestServer.adminToken {
            return FirebaseTestServer.RequestAuth(uid: FirebaseTestServer.adminToken, provider: "admin", token: [:], isAdmin: true)
        }
        guard case .valid(let uid, let claims) = checkIDToken(token, now: auth.clock(Date())) else { return nil }
        let provider = claims["firebase"]?["sign_in_provider"]?.stringValue ?? "custom"
        return FirebaseTestServer.RequestAuth(uid: uid, provider: provider, token: claims)
    }

    /// The 401 a database request presenting `token` gets, if any.
    ///
    /// - Revoked tokens (`revokeAuth(_:)`): `Permission denied`, always.
    /// - `owner`: accepted.
    /// - An ID token of this server whose `exp` passed on the auth clock: `Auth token is expired`,
    ///   whether or not auth is required (as Firebase refuses an expired credential).
    /// - When auth is required: a valid ID token of an existing enabled user, or one of the
    ///   tokens given to `requireDatabaseAuth(validTokens:)`, is accepted; no token, or an ID
    ///   token of a deleted or disabled user, gets `Permission denied`; anything else gets
    ///   `Could not parse auth token.`
    func databaseAuthRefusal(_ token: String?) -> HTTPResponse? {
        if let token, database.revokedTokens.contains(token) { return DatabaseWire.permissionDenied }
        if token == FirebaseTestServer.adminToken { return nil }
        let check = token.map { checkIDToken($0, now: auth.clock(Date())) }
        if case .expired? = check { return DatabaseWire.error(401, "Auth token is expired") }
        guard let validTokens = database.validTokens else { return nil }
        guard let token, let check else { return DatabaseWire.permissionDenied }
        switch check {
        case .valid: return nil
        case .expired: return DatabaseWire.error(401, "Auth token is expired")
        case .userInvalid: return DatabaseWire.permissionDenied
        case .malformed: return validTokens.contains(token) ? nil : DatabaseWire.error(401, "Could not parse auth token.")
        }
    }
}
