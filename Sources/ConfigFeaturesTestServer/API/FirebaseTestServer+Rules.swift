import ConfigFeatures

extension FirebaseTestServer {
    /// Loads Realtime Database Security Rules (Firebase's rules JSON; `//` and `/* */` comments
    /// allowed), evaluated from then on for every REST read, write, query and streaming listen
    /// that does not use the admin token `owner`. Open listens the new rules deny get `cancel`
    /// and close.
    ///
    /// - Throws: `FirebaseTestServerRulesError` with the line, column and what was expected,
    ///   when the text does not parse or type-check; the previous rules stay in force then.
    public func setDatabaseRules(_ rules: String) throws(FirebaseTestServerRulesError) {
        let loaded = try DatabaseRules(rules)
        let now = engine.now()
        engine.mutate { state, effects in
            state.database.rules = loaded
            state.cancelDeniedListens(now: now, &effects)
        }
    }

    /// The text of the current Security Rules. Until rules are loaded it is the open default,
    /// as the emulator's: `{"rules": {".read": true, ".write": true}}`.
    public var databaseRules: String {
        engine.read { $0.database.rules?.text ?? DatabaseRules.openText }
    }
}
