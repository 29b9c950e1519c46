import Foundation

extension FirebaseTestServer {
    /// A registered installation, as `installations` lists it.
    public struct InstallationRecord: Sendable, Hashable {
        /// The installation ID (FID).
        public var fid: String
        /// The Firebase app ID it was registered for.
        public var appID: String
        /// The `sdkVersion` of the registration.
        public var sdkVersion: String?
        /// How many auth tokens were issued to it (registration included).
        public var issuedAuthTokens: Int
    }

    /// The Installations host root (`baseURL`), in place of
    /// `https://firebaseinstallations.googleapis.com`; clients append `/v1/projects/…`.
    public var installationsBaseURL: URL { baseURL }

    /// The registered installations, in the order they were first registered (deleted ones
    /// left out).
    public var installations: [InstallationRecord] {
        engine.read { state in
            state.installations.registrationOrder.compactMap { fid in
                state.installations.installations[fid].map {
                    InstallationRecord(fid: fid, appID: $0.appID, sdkVersion: $0.sdkVersion, issuedAuthTokens: $0.issuedTokenCount)
                }
            }
        }
    }

    /// Deletes the installation `fid` (as the console or the Admin API would): its refresh
    /// answers 404 and its tokens stop being valid. Whether it existed.
    @discardableResult
    public func deleteInstallation(_ fid: String) -> Bool {
        engine.mutate { state, _ in
            state.installations.registrationOrder.removeAll { $0 == fid }
            return state.installations.installations.removeValue(forKey: fid) != nil
        }
    }

    /// Revokes every installation's refresh token: refreshes answer 401 until the client
    /// registers again. Auth tokens already issued stay valid until they expire.
    public func revokeInstallationRefreshTokens() {
        engine.mutate { state, _ in
            for fid in state.installations.installations.keys {
                state.installations.installations[fid]?.refreshToken = "revoked"
            }
        }
    }

    /// How long the auth tokens the server issues live (`expiresIn`), 7 days by default.
    public var installationAuthTokenLifetime: TimeInterval {
        get { engine.read { $0.installations.authTokenLifetime } }
        set { engine.mutate { state, _ in state.installations.authTokenLifetime = newValue } }
    }

    /// Whether Remote Config fetches and realtime connections must carry a valid installation
    /// auth token for their `app_instance_id` / `appInstanceId` (`false` by default). Without
    /// one they get 401 `UNAUTHENTICATED`, as a project that enforces installation auth.
    public var requiresInstallationAuth: Bool {
        get { engine.read { $0.installations.requiresAuthToken } }
        set { engine.mutate { state, _ in state.installations.requiresAuthToken = newValue } }
    }
}
