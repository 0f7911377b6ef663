import Foundation
import InterludeCLI
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@Suite struct ServeCommandTests {
    @Test func defaultsServeTheBuiltInCatalogOnLoopback8080() throws {
        let options = try ServeCommand.parse([])
        #expect(options.host == "127.0.0.1" && options.port == 8080)
        #expect(options.catalogPath == nil && options.generatesMedia)
    }

    @Test func flagsAreRead() throws {
        let options = try ServeCommand.parse(
            ["--host", "::1", "--port", "0", "--data-dir", "/tmp/d", "--catalog", "c.json", "--no-media", "--quiet"])
        #expect(options.host == "::1" && options.port == 0 && options.dataDirectory == "/tmp/d")
        #expect(options.catalogPath == "c.json" && !options.generatesMedia && !options.logsAccess)
    }

    @Test func threadsFlagIsReadAndBounded() throws {
        #expect(try ServeCommand.parse(["--threads", "3"]).threads == 3)
        #expect(try ServeCommand.parse([]).threads == nil)
        #expect(throws: ServeCommand.UsageError.self) { try ServeCommand.parse(["--threads", "0"]) }
    }

    @Test func badPortIsAUsageError() {
        #expect(throws: ServeCommand.UsageError.self) { try ServeCommand.parse(["--port", "70000"]) }
        #expect(throws: ServeCommand.UsageError.self) { try ServeCommand.parse(["--port"]) }
    }

    @Test func unknownFlagIsAUsageError() {
        #expect(throws: ServeCommand.UsageError.self) { try ServeCommand.parse(["--bogus"]) }
    }

    @Test func corruptCatalogFileMakesRunFailWithStatus1() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let catalog = directory.url.appendingPathComponent("catalog.json")
        try Data("{ not json".utf8).write(to: catalog)
        #expect(ServeCommand.run(arguments: ["--catalog", catalog.path, "--data-dir", directory.url.path]) == 1)
    }

    @Test func badArgumentsMakeRunFailWithStatus2() {
        #expect(ServeCommand.run(arguments: ["--nope"]) == 2)
    }
}
