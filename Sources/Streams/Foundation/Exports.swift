// `import Streams` also imports Foundation, as `import RxCocoa` does on Apple platforms (its
// umbrella header imports Foundation and its module map exports it): RxSwift application code
// names `URL`, `NSError`, `TimeInterval`, … after importing only RxSwift/RxCocoa, and ports by
// changing the import. FoundationNetworking (where `URLSession` lives on Linux) is exported by
// `StreamsCocoa` instead, with `URLSession.rx`: linking it loads libcurl and its TLS and Kerberos
// libraries, 6.5 MB of resident memory in every process, which a stream library should not
// cost an app that never opens a connection. See Sources/Streams/Streams.docc/DifferencesFromRxSwift.md.
@_exported import Foundation
