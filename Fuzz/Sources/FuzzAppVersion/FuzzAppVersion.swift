// Fuzzes `AppVersion(parsing:)` (public), which reads version strings from Remote Config
// (force update) and the app bundle, and the ordering of parsed versions.
//
// Input: a version text, optionally followed by a zero byte and a second one.
// Checks: a version reads back from its `description` with the same description; two
// versions are ordered consistently (exactly one of <, ==, >) and equal ones hash alike.
import ConfigFeatures
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let texts = input.parts(2).map { String(decoding: $0, as: UTF8.self) }
    var versions: [AppVersion] = []
    for text in texts {
        do {
            let version = try AppVersion(parsing: text)
            let again = try? AppVersion(parsing: version.description)
            require(again == version, "\(version) does not read back from its description")
            require(again?.description == version.description, "description of \(version) is not stable")
            require(AppVersion(text) == version, "init? and init(parsing:) disagree")
            _ = (version.major, version.minor, version.patch, version.isPreRelease, version.component(7))
            versions.append(version)
        } catch {
            _ = error.description
            require(AppVersion(text) == nil, "init? accepts what init(parsing:) rejects")
        }
    }
    if versions.count == 2 {
        let (a, b) = (versions[0], versions[1])
        let relations = [a < b, a == b, b < a].filter { $0 }.count
        require(relations == 1, "\(a) and \(b): \(relations) of <, ==, > hold")
        if a == b { require(a.hashValue == b.hashValue, "equal versions \(a), \(b) hash differently") }
    }
    return 0
}
