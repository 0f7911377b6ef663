import Foundation
import Testing

@testable import InterludeCLI

/// `interlude demo`'s command line: which parts run and at what speeds.
@Suite("interlude demo options")
struct DemoOptionsTests {
    func failure(_ arguments: [String]) -> String? {
        if case .failure(let failure) = DemoCommand.parse(arguments) { return failure.message }
        return nil
    }

    @Test func theDefaultsRunEveryPartAtTheStatedSpeeds() throws {
        let options = try DemoCommand.parse([]).get()
        #expect(options.parts == [.client, .live, .vod])
        #expect(options.playback.speed == 2)
        #expect(options.playback.contentDuration == 60)
        #expect(options.streamSpeed == 4)
        #expect(options.liveSpeed == 2)
        #expect(options.generatesMedia)
    }

    @Test func onlyRunsOnePartAndTheStreamSpeedsAreRead() throws {
        let options = try DemoCommand.parse([
            "--only", "vod", "--stream-speed", "8", "--live-speed", "1.5", "--no-media", "--data-dir", "/tmp/d",
        ]).get()
        #expect(options.parts == [.vod])
        #expect(options.streamSpeed == 8)
        #expect(options.liveSpeed == 1.5)
        #expect(!options.generatesMedia)
        #expect(options.dataDirectory.path == "/tmp/d")
        #expect(try DemoCommand.parse(["--only", "live"]).get().parts == [.live])
        #expect(try DemoCommand.parse(["--only", "client"]).get().parts == [.client])
    }

    @Test func badPartsAndSpeedsAreUsageFailures() {
        #expect(failure(["--only", "tv"])?.contains("client, live or vod") == true)
        #expect(failure(["--only"]) != nil)
        #expect(failure(["--stream-speed", "0"]) != nil)
        #expect(failure(["--stream-speed", "51"]) != nil)
        #expect(failure(["--stream-speed", "fast"]) != nil)
        // A live channel faster than 3× outruns the player's reloads.
        #expect(failure(["--live-speed", "4"])?.contains("at most 3") == true)
        #expect(failure(["--live-speed", "-1"]) != nil)
    }

    @Test @MainActor func aBadPartOrSpeedExitsTwoWithoutStartingAnything() async {
        #expect(await DemoCommand.run(arguments: ["--only", "everything"]) == 2)
        #expect(await DemoCommand.run(arguments: ["--live-speed", "10"]) == 2)
    }
}
