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
}
