/// Where the documentation's marble pictures live.
public enum DocDiagramFiles {
    /// The folder of the pictures, relative to the package root.
    public static let resourcesPath = "Sources/Streams/Streams.docc/Resources"

    /// The picture's file name: `marble-<name>.svg`.
    public static func fileName(of spec: DiagramSpec) -> String { "marble-\(spec.name).svg" }
}
