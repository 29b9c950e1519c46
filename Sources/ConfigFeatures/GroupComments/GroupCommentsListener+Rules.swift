extension GroupCommentsListener {
    /// The group chat's Firebase Realtime Database Security Rules, as Firebase's rules JSON:
    /// load it with `FirebaseTestServer.setDatabaseRules(_:)`, or deploy it to a project as it
    /// is (`database.rules.json`, the console's Rules tab).
    ///
    ///     try server.setDatabaseRules(GroupCommentsListener.securityRules)
    ///
    /// The data it protects (`groupsPath` `"Groups"`, `usersPath` `"Users"`):
    ///
    ///     Users/<uid>:                  {"<groupID>": true, …}     the groups the user belongs to
    ///     Groups/<groupID>/<commentID>: {"author": <uid>, "text": "…", "timestamp": <ms>}
    ///
    /// What each rule allows:
    /// - `Users/$uid` `.read`: the signed-in user `$uid` reads their own membership, nobody
    ///   else's. There is no `.write`: only the admin (a server, the console, the Admin SDK)
    ///   adds and removes members; a member entry must be `true`.
    /// - `Groups/$groupID` `.read`: a user whose membership holds `$groupID: true` reads the
    ///   group's comments; anyone else is refused (and an open listen is cancelled when an admin
    ///   removes the user).
    /// - `Groups/$groupID/$commentID` `.write`: a member writes a new comment, or changes or
    ///   deletes their own (`author` is their uid); nobody writes a whole group.
    /// - `.validate`: a comment has exactly `author` (the writer's uid), `text` (a string of 1 to
    ///   1,000 characters) and `timestamp` (`now`: the client sends the server's timestamp,
    ///   `RealtimeDatabaseServerValue.timestamp`, as `post(_:to:as:)` does).
    ///
    /// Membership stored this way (`{"group0": true}`) is what `membership(ofUser:usersPath:)`
    /// reads; rules cannot search an array, so the seed's `["group0", "group1"]` list would not
    /// let them check membership. Comments the admin stored as strings (the seed's) are read as
    /// before. See <doc:Features-GroupComments#Security-Rules>.
    public static let securityRules: String = """
        {
          // The group chat's Security Rules (GroupCommentsListener.securityRules).
          "rules": {
            "Users": {
              "$uid": {
                // A user reads their own membership; only the admin writes it.
                ".read": "auth != null && auth.uid === $uid",
                "$groupID": {
                  ".validate": "newData.val() === true"
                }
              }
            },
            "Groups": {
              "$groupID": {
                // The group's members read its comments.
                ".read": "auth != null && root.child('Users').child(auth.uid).child($groupID).val() === true",
                "$commentID": {
                  // A member writes a new comment, or changes or deletes their own.
                  ".write": "auth != null && root.child('Users').child(auth.uid).child($groupID).val() === true && (!data.exists() || data.child('author').val() === auth.uid)",
                  // {"author": the writer's uid, "text": 1 to 1000 characters, "timestamp": the server's time}
                  ".validate": "newData.hasChildren(['author', 'text', 'timestamp'])",
                  "author": {".validate": "newData.val() === auth.uid"},
                  "text": {".validate": "newData.isString() && newData.val().length >= 1 && newData.val().length <= 1000"},
                  "timestamp": {".validate": "newData.isNumber() && newData.val() === now"},
                  "$other": {".validate": false}
                }
              }
            }
          }
        }
        """

    /// Posts `text` to `groupID` as the user `author`, in the shape `securityRules` accepts:
    /// `{"author": author, "text": text, "timestamp": RealtimeDatabaseServerValue.timestamp}`
    /// under a new push ID child of `<groupsPath>/<groupID>`.
    ///
    ///     listener.post("see you at 8", to: "group0", as: auth.currentUser!.uid)
    ///
    /// Every mode of `listen` shows it (by its `text`) as `post(_:to:)`'s string comments.
    /// Under `securityRules`, the server refuses it unless `author` is the signed-in user, the
    /// user belongs to the group and `text` has 1 to 1,000 characters; on a
    /// ``LocalFirstRealtimeDatabase`` the refused comment then disappears from this client's
    /// lists and the post fails with the typed error.
    ///
    /// - Parameters:
    ///   - text: The comment.
    ///   - groupID: The group; one valid key (as in the membership).
    ///   - author: The uid of the signed-in user (Firebase Auth's `uid`).
    /// - Returns: A cold sequence that writes on subscription and completes when the database
    ///   acknowledges the write, as `post(_:to:)`; fails at once with
    ///   `RealtimeDatabaseError.invalidPath` for an invalid `groupID`, or with the database's
    ///   error (`FirebaseRESTDatabaseError.permissionDenied` over REST when the rules refuse it).
    /// - Note: Delivers on the database's scheduler. See <doc:Features-GroupComments#Security-Rules>.
    public func post(_ text: String, to groupID: String, as author: String) -> Completable {
        let comment: JSONValue = ["author": .string(author), "text": .string(text), "timestamp": RealtimeDatabaseServerValue.timestamp]
        return post(comment, to: groupID)
    }
}
