// `import StreamsCocoa` is `import RxCocoa`'s counterpart for non-UI code: it imports Streams
// (RxSwift, RxRelay, the traits, Driver and Signal) and Foundation, and where `URLSession`
// lives in FoundationNetworking (Linux) that module too, so `URLSession.shared.rx` needs no
// other import. See Sources/ConfigFeatures/ConfigFeatures.docc/Networking.md.
@_exported import Streams  // re-exports Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
