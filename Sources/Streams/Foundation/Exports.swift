// `import Streams` also imports Foundation, as `import RxCocoa` does on Apple platforms (its
// umbrella header imports Foundation and its module map exports it): RxSwift application code
// names `URL`, `NSError`, `TimeInterval`, … after importing only RxSwift/RxCocoa, and ports by
// changing the import. Where `URLSession` lives in FoundationNetworking (Linux), that module is
// exported too, so `URLSession.rx` needs no extra import. See Guides/DifferencesFromRxSwift.md.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
