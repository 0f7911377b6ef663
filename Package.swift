// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Interlude",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16)],
    products: [
        .library(name: "InterludeVAST", targets: ["InterludeVAST"]),
        .library(name: "InterludeHLS", targets: ["InterludeHLS"]),
        .library(name: "Interlude", targets: ["Interlude"]),
        .library(name: "InterludePlayer", targets: ["InterludePlayer"]),
        .library(name: "InterludeAVKit", targets: ["InterludeAVKit"]),
        .executable(name: "interlude", targets: ["InterludeCLI"]),
        .executable(name: "interlude-bench", targets: ["InterludeBench"]),
        .library(name: "InterludeServer", targets: ["InterludeServer"]),
    ],
    targets: [
        // SDK format layer: Foundation only, so it builds for iOS unchanged.
        .target(name: "InterludeVAST"),
        // HLS playlists, ad markers, SCTE-35. Foundation only.
        .target(name: "InterludeHLS"),
        // SDK runtime: loading, tracking, beacons. Foundation only.
        .target(name: "Interlude", dependencies: ["InterludeVAST", "InterludeHLS"]),
        // Apple only (everything behind #if canImport): AVPlayer display, UIKit overlay.
        .target(name: "InterludeAVKit", dependencies: ["Interlude"]),
        // Players for Linux/macOS: the simulated display (tests, demo).
        .target(name: "InterludePlayer", dependencies: ["Interlude"]),

        // The reference ad stack (server side; links C libraries, not part of the SDK).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "InterludeServer",
            dependencies: ["InterludeVAST", "InterludeHLS", "Interlude", "CMicroHTTPD", "CSQLite"]),
        // Benchmark helper for scripts/bench-server.sh (exact-count beacon burst).
        .executableTarget(name: "interlude-beacon-burst"),

        // Raw libxml2, used only by the benchmark as the speed reference (through
        // CXMLScan, so Swift never imports libxml2's headers).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),

        .executableTarget(name: "InterludeCLI", dependencies: ["InterludeVAST", "InterludeHLS", "Interlude", "InterludePlayer", "InterludeServer"]),
        .target(name: "CXMLScan", dependencies: ["CLibXML2"]),
        .executableTarget(
            name: "InterludeBench",
            dependencies: [
                "InterludeVAST", "InterludeHLS", "Interlude", "InterludePlayer", "InterludeServer", "InterludeTestSupport",
                "CXMLScan",
            ]),

        .target(name: "InterludeTestSupport", dependencies: ["InterludeVAST", "Interlude", "InterludeServer"]),

        .testTarget(name: "InterludeVASTTests", dependencies: ["InterludeVAST", "InterludeTestSupport"]),
        .testTarget(
            name: "InterludeHLSTests", dependencies: ["InterludeHLS", "InterludeCLI"], exclude: ["Fixtures"]),
        .testTarget(name: "InterludeTests", dependencies: ["Interlude", "InterludePlayer", "InterludeTestSupport"]),
        .testTarget(
            name: "InterludeServerTests",
            dependencies: ["InterludeServer", "InterludeVAST", "InterludeTestSupport", "InterludeCLI"]),
        .testTarget(
            name: "InterludeIntegrationTests",
            dependencies: ["Interlude", "InterludePlayer", "InterludeServer", "InterludeTestSupport"]),
        .testTarget(name: "InterludeCLITests", dependencies: ["InterludeCLI", "InterludeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
