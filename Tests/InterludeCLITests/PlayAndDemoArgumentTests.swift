import Foundation
import Testing

@testable import InterludeCLI

/// Bad command lines get a clear usage error (exit 2), before anything starts.
@Suite("play and demo arguments")
struct PlayAndDemoArgumentTests {
    func failure(_ arguments: [String]) -> String? {
        if case .failure(let failure) = PlayCommand.parse(arguments) { return failure.message }
        return nil
    }

    @Test func playReadsItsOptions() throws {
        guard
            case .success(let options) = PlayCommand.parse(
                [
                    "--speed", "4", "--content-duration", "90", "--language", "pt-BR", "--json",
                    "http://127.0.0.1:8080/vmap",
                ])
        else {
            Issue.record("valid arguments refused")
            return
        }
        #expect(options.speed == 4 && options.contentDuration == 90 && options.language == "pt-BR" && options.json)
        #expect(options.tag?.absoluteString == "http://127.0.0.1:8080/vmap")
    }

    @Test func playRefusesBadValues() {
        #expect(failure([]) == "missing the tag URL")
        #expect(failure(["--speed", "-1", "http://127.0.0.1/t"])?.contains("--speed") == true)
        #expect(failure(["--speed"])?.contains("--speed") == true)
        #expect(failure(["--content-duration", "abc", "http://127.0.0.1/t"])?.contains("--content-duration") == true)
        #expect(failure(["--bogus", "http://127.0.0.1/t"]) == "unknown option '--bogus'")
        #expect(failure(["file:///etc/passwd"]) == "'file:///etc/passwd' is not an http(s) URL")
        #expect(failure(["http://127.0.0.1/a", "http://127.0.0.1/b"]) == "only one URL can be played")
    }

    @Test @MainActor func playExitsTwoOnUsageErrors() async {
        #expect(await PlayCommand.run(arguments: ["--speed", "0", "http://127.0.0.1/t"]) == 2)
    }

    @Test @MainActor func demoExitsTwoOnUsageErrorsWithoutStartingAnything() async {
        #expect(await DemoCommand.run(arguments: ["--speed", "-3"]) == 2)
        #expect(await DemoCommand.run(arguments: ["--content-duration", "10"]) == 2)
        #expect(await DemoCommand.run(arguments: ["--frobnicate"]) == 2)
    }

    @Test func playAndDemoCheckTheSharedFlagsWithOneParser() throws {
        var options = PlayCommand.Options()
        var demo = ArgumentReader(["--speed", "200"])
        #expect(throws: PlayCommand.UsageFailure.self) {
            _ = try demo.readPlaybackFlag(demo.next()!, into: &options, limits: .demo)
        }
        var play = ArgumentReader(["--speed", "200", "--content-duration", "10", "--language", "pt-BR"])
        while let flag = play.next() { #expect(try play.readPlaybackFlag(flag, into: &options, limits: .play)) }
        #expect(options.speed == 200 && options.contentDuration == 10 && options.language == "pt-BR")
        var short = ArgumentReader(["--content-duration", "10"])
        #expect(throws: PlayCommand.UsageFailure.self) {
            _ = try short.readPlaybackFlag(short.next()!, into: &options, limits: .demo)
        }
        var other = ArgumentReader(["--json"])
        #expect(try other.readPlaybackFlag(other.next()!, into: &options, limits: .play) == false)
    }

    @Test @MainActor func demoRefusesAMissingDataDirectory() async {
        #expect(await DemoCommand.run(arguments: ["--data-dir"]) == 2)
    }
}
