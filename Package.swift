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
        // Text formats every module shares (the ISO 8601 writer, the number
        // formatter), as `package` symbols: no public API. Foundation only.
        .target(name: "InterludeFormatting"),
        // SDK format layer: Foundation only, so it builds for iOS unchanged.
        .target(name: "InterludeVAST", dependencies: ["InterludeFormatting"]),
        // HLS playlists, ad markers, SCTE-35. Foundation only.
        .target(name: "InterludeHLS", dependencies: ["InterludeFormatting"]),
        // SDK runtime: loading, tracking, beacons. Foundation only.
        .target(name: "Interlude", dependencies: ["InterludeVAST", "InterludeHLS", "InterludeFormatting"]),
        // Apple only (everything behind #if canImport): AVPlayer display, UIKit overlay.
        .target(name: "InterludeAVKit", dependencies: ["Interlude"]),
        // Players for Linux/macOS: the simulated display (tests, demo) and the HLS stream display.
        .target(name: "InterludePlayer", dependencies: ["Interlude", "InterludeHLS"]),

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
        // The inspector's report of a VAST/VMAP document or fetched tag: what
        // `interlude inspect --json` prints and the console's /api/inspect answers.
        .target(name: "InterludeInspection", dependencies: ["InterludeVAST", "Interlude", "InterludeFormatting"]),
        .target(
            name: "InterludeServer",
            dependencies: [
                "InterludeVAST", "InterludeHLS", "Interlude", "InterludeFormatting", "InterludeInspection",
                "CMicroHTTPD",
                "CSQLite",
            ],
            // The web console's pages, compiled into the binary (no bundle to find at run time).
            resources: [.embedInCode("Console/Assets")]),
        // Benchmark helper for scripts/bench-server.sh (exact-count beacon burst).
        .executableTarget(name: "interlude-beacon-burst"),

        // Raw libxml2, used only by the benchmark as the speed reference (through
        // CXMLScan, so Swift never imports libxml2's headers).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),

        .executableTarget(
            name: "InterludeCLI",
            dependencies: [
                "InterludeVAST", "InterludeHLS", "Interlude", "InterludeInspection", "InterludePlayer",
                "InterludeServer", "InterludeFormatting",
            ]),
        .target(name: "CXMLScan", dependencies: ["CLibXML2"]),
        .executableTarget(
            name: "InterludeBench",
            dependencies: [
                "InterludeVAST", "InterludeHLS", "Interlude", "InterludePlayer", "InterludeServer",
                "InterludeTestSupport",
                "CXMLScan",
            ]),

        // Test doubles for the SDK (clock, HTTP, journal storage, corpus, model
        // generator): no server, so SDK tests never link it.
        .target(name: "InterludeTestSupport", dependencies: ["InterludeVAST", "Interlude"]),
        // Server test helpers: the in-process test server and raw loopback connections.
        .target(name: "InterludeServerTestSupport", dependencies: ["InterludeServer", "InterludeTestSupport"]),

        // Each test target depends on what it tests and the helpers it uses; only
        // InterludeCLITests depends on the executable.
        .testTarget(name: "InterludeFormattingTests", dependencies: ["InterludeFormatting"]),
        .testTarget(name: "InterludeVASTTests", dependencies: ["InterludeVAST", "InterludeTestSupport"]),
        // InterludeServer for ChildProcess: the oracles and ffprobe run through posix_spawn.
        .testTarget(
            name: "InterludeHLSTests", dependencies: ["InterludeHLS", "InterludeServer"], exclude: ["Fixtures"]),
        .testTarget(name: "InterludeTests", dependencies: ["Interlude", "InterludePlayer", "InterludeTestSupport"]),
        .testTarget(
            name: "InterludeServerTests",
            dependencies: [
                "InterludeServer", "InterludeVAST", "InterludeInspection", "InterludeTestSupport",
                "InterludeServerTestSupport",
            ]),
        .testTarget(
            name: "InterludeIntegrationTests",
            dependencies: [
                "Interlude", "InterludePlayer", "InterludeServer", "InterludeTestSupport", "InterludeServerTestSupport",
            ]),
        .testTarget(
            name: "InterludeCLITests",
            dependencies: ["InterludeCLI", "InterludeHLS", "InterludeTestSupport", "InterludeServerTestSupport"]),
        .testTarget(
            name: "InterludePlayerTests",
            dependencies: [
                "InterludePlayer", "Interlude", "InterludeHLS", "InterludeServer", "InterludeTestSupport",
                "InterludeServerTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
