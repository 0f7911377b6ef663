import Foundation

/// The shared third-party test corpus (`../shared/corpus` beside the package
/// root). Read-only: tests read files from it and never copy them.
public enum Corpus {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // InterludeTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    /// `../shared/corpus` relative to the package root.
    public static let root: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus", isDirectory: true)

    /// The bytes of a corpus file, e.g. `data("vast-client-js/sample.xml")`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    /// Every file under the corpus with the given extension, sorted by path.
    public static func files(withExtension pathExtension: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix("." + pathExtension) { paths.append(path) }
        }
        return paths.sorted()
    }
}

/// A small deterministic random number generator (SplitMix64), so property
/// tests are reproducible from their seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
