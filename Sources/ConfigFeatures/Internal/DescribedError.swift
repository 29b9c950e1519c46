import Foundation

/// A public error whose `description` is already the text for people (and free of secrets):
/// conforming gives it `LocalizedError`'s `errorDescription`, so `localizedDescription` says what
/// went wrong instead of Foundation's generic "The operation couldn't be completed" text.
package protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
    /// The error's `description`, so `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}

// Every public error type of ConfigFeatures (ConfigFeaturesTestServer lists its own).
extension AppVersionError: LocalizedError, DescribedError {}
extension FirebaseAuthError: LocalizedError, DescribedError {}
extension FirebaseAuthStorageError: LocalizedError, DescribedError {}
extension FirebaseEndpointsError: LocalizedError, DescribedError {}
extension FirebaseInstallationsError: LocalizedError, DescribedError {}
extension FirebaseInstallationsStorageError: LocalizedError, DescribedError {}
extension FirebaseRESTDatabaseError: LocalizedError, DescribedError {}
extension ForceUpdateError: LocalizedError, DescribedError {}
extension ItemListError: LocalizedError, DescribedError {}
extension JSONParseError: LocalizedError, DescribedError {}
extension LaunchError: LocalizedError, DescribedError {}
extension RealtimeDatabaseError: LocalizedError, DescribedError {}
extension RealtimeDatabasePersistenceError: LocalizedError, DescribedError {}
extension RemoteConfigBackendError: LocalizedError, DescribedError {}
extension RemoteConfigConditionError: LocalizedError, DescribedError {}
extension RemoteConfigError: LocalizedError, DescribedError {}
extension RemoteConfigServerTemplateError: LocalizedError, DescribedError {}
extension RemoteConfigStorageError: LocalizedError, DescribedError {}
extension RemoteConfigTemplateError: LocalizedError, DescribedError {}
extension RemoteConfigUpdateError: LocalizedError, DescribedError {}
extension ServerSentEventError: LocalizedError, DescribedError {}
