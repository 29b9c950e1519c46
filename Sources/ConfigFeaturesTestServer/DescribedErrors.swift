import ConfigFeatures
import Foundation

// Every public error type of ConfigFeaturesTestServer: `localizedDescription` is its
// `description` (ConfigFeatures' `DescribedError`).
extension FirebaseTestServerAuthError: LocalizedError, DescribedError {}
extension FirebaseTestServerDataError: LocalizedError, DescribedError {}
extension FirebaseTestServerError: LocalizedError, DescribedError {}
extension FirebaseTestServerRulesError: LocalizedError, DescribedError {}
