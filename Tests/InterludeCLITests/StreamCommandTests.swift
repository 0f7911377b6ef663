import Foundation
import Interlude
import Testing

@testable import InterludeCLI

/// `interlude stream`'s pure parts: its command line, its keys and what it draws.
@Suite("interlude stream")
struct StreamCommandTests {
    func parsed(_ arguments: [String]) throws -> StreamCommand.Options {
        try StreamCommand.parse(arguments).get()
    }

    func failure(_ arguments: [String]) -> String? {
        if case .failure(let failure) = StreamCommand.parse(arguments) { return failure.message }
        return nil
    }

    @Test func liveAndVODDefaultToTheServesBuiltInChannelAndTitleAtItsDefaultAddress() throws {
        let live = try parsed(["live"])
        #expect(live.kind == .live(customAssetKey: "interlude-live"))
        #expect(live.serverURL.absoluteString == "http://127.0.0.1:8080")
        #expect(live.template == "http://127.0.0.1:8080/vtp/stream_id/[[STREAMID]]/live/interlude-live.m3u8")
        let vod = try parsed(["vod"])
        #expect(vod.kind == .vod)
        #expect(vod.template == "http://127.0.0.1:8080/vtp/stream_id/[[STREAMID]]/video/interlude-film.m3u8")
        #expect(vod.snapback)
        #expect(vod.speed == 1)
        #expect(!vod.json)
    }

    @Test func aNamedChannelOrTitleAndTheOptionsAreRead() throws {
        let options = try parsed([
            "vod", "test-film", "--server", "http://127.0.0.1:9000/", "--speed", "4", "--language", "pt-BR",
            "--json", "--network", "other", "--api-key", "k", "--no-snapback",
        ])
        #expect(options.template == "http://127.0.0.1:9000/vtp/stream_id/[[STREAMID]]/video/test-film.m3u8")
        #expect(options.serverURL.absoluteString == "http://127.0.0.1:9000/")
        #expect(options.speed == 4)
        #expect(options.language == "pt-BR")
        #expect(options.json)
        #expect(options.networkCode == "other")
        #expect(options.apiKey == "k")
        #expect(!options.snapback)
        #expect(try parsed(["live", "test-live"]).kind == .live(customAssetKey: "test-live"))
    }

    @Test func aTemplateSaysLiveOrVODByItsPathAndIsRegisteredAtItsOwnServer() throws {
        let live = try parsed(["http://127.0.0.1:9001/vtp/stream_id/[[STREAMID]]/live/test-live.m3u8?mode=replace"])
        #expect(live.kind == .live(customAssetKey: "test-live"))
        #expect(live.serverURL.absoluteString == "http://127.0.0.1:9001")
        #expect(
            live.manifestURL(streamID: "abc")?.absoluteString
                == "http://127.0.0.1:9001/vtp/stream_id/abc/live/test-live.m3u8?mode=replace")
        let vod = try parsed([
            "http://example.com/vtp/stream_id/[[STREAMID]]/video/film.m3u8", "--server", "http://a.test",
        ])
        #expect(vod.kind == .vod)
        #expect(vod.serverURL.absoluteString == "http://a.test")
        // Another VTP's template needs to be told.
        let other = "https://cdn.example.com/[[STREAMID]]/master.m3u8"
        #expect(failure([other])?.contains("--live CUSTOM_ASSET_KEY or --vod") == true)
        #expect(try parsed([other, "--live", "my-asset"]).kind == .live(customAssetKey: "my-asset"))
        #expect(try parsed([other, "--vod"]).kind == .vod)
    }

    @Test func badArgumentsAreUsageFailures() {
        #expect(failure([]) != nil)
        #expect(failure(["tv"])?.contains("not live, vod or a URL template") == true)
        #expect(failure(["http://127.0.0.1/no-macro.m3u8"]) != nil)
        #expect(failure(["ftp://h/[[STREAMID]]/live/x.m3u8"])?.contains("not an http(s) URL") == true)
        #expect(failure(["live", "a/b"])?.contains("not a channel name") == true)
        #expect(failure(["vod", ".."]) != nil)
        #expect(failure(["live", "one", "two"]) != nil)
        #expect(failure(["live", "--speed", "0"]) != nil)
        #expect(failure(["live", "--speed", "1000"]) != nil)
        #expect(failure(["live", "--speed"]) != nil)
        #expect(failure(["live", "--server", "file:///etc/passwd"])?.contains("--server") == true)
        #expect(failure(["live", "--frobnicate"])?.contains("unknown option") == true)
        #expect(failure(["live", "--content-duration", "5"])?.contains("unknown option") == true)
        #expect(failure(["live", "--vod"]) != nil)
        #expect(failure(["live", "--network", "bad code"]) != nil)
    }

    @Test @MainActor func aBadArgumentExitsTwoWithoutRegisteringAnything() async {
        #expect(await StreamCommand.run(arguments: ["--frobnicate"]) == 2)
        #expect(await StreamCommand.run(arguments: []) == 2)
        #expect(await InterludeCommand.run(arguments: ["stream", "vod", "x", "y"]) == 2)
    }

    @Test func keysAreDecodedWithTheArrowKeysEscapeSequences() {
        var decoder = KeyDecoder()
        func feed(_ text: String) -> [StreamAction] { text.compactMap { decoder.feed($0) } }
        #expect(feed("\u{1B}[C\u{1B}[D") == [.seek(10), .seek(-10)])
        #expect(feed("fbpl q") == [.seek(10), .seek(-10), .togglePause, .learnMore, .togglePause, .quit])
        // A lone escape does not eat the next key; unknown sequences and keys do nothing.
        #expect(feed("\u{1B}q") == [.quit])
        #expect(feed("\u{1B}[Ax?") == [])
    }

    static let adUI = AdUIState(
        isCustomUIVisible: true, isBuiltInUIVisible: false, learnMoreVisible: true, learnMoreTitle: "Learn More",
        countdownVisible: true, countdownText: "Ad 1 of 3 (12s)", skipButtonVisible: false, skipButtonTitle: "",
        skipButtonEnabled: false)

    func frame(
        live: Bool = false, streamTime: TimeInterval = 40, cuepoints: [Cuepoint] = [], inBreak: Bool = false,
        ui: AdUIState = .hidden, phase: StreamFrame.Phase = .playing
    ) -> StreamFrame {
        StreamFrame(
            isLive: live, phase: phase, streamTime: streamTime, streamDuration: live ? 0 : 100,
            contentTime: 20, contentDuration: live ? 0 : 60, speed: 1, cuepoints: cuepoints, inBreak: inBreak, ui: ui,
            lastEvent: "STARTED vod_1_ad1")
    }

    @Test func theCustomAdUIShowsTheCountdownAndLearnMore() {
        let lines = frame(inBreak: true, ui: Self.adUI).lines()
        #expect(lines[0] == "stream ▶ 00:40 / 01:40   content 00:20 / 01:00")
        #expect(lines[2] == "AD  Ad 1 of 3 (12s)   [ Learn More (l) ]")
        #expect(lines[3] == "last event: STARTED vod_1_ad1")
        #expect(frame(inBreak: true, ui: Self.adUI, phase: .paused).adLine.hasSuffix("❚❚ paused"))
        // Content shows no ad line; a break without UI (slate) says it is one.
        #expect(frame().adLine == "")
        #expect(frame(inBreak: true).adLine == "AD BREAK")
    }

    @Test func theCuepointsBarMarksPlayedAndUnplayedBreaks() {
        // 100 s over 10 cells: a played break at 0–10 s, one not played at 50–60 s, the playhead at 35 s.
        let cues = [
            Cuepoint(startTime: 0, endTime: 10, isPlayed: true), Cuepoint(startTime: 50, endTime: 60, isPlayed: false),
        ]
        let frame = frame(streamTime: 35, cuepoints: cues)
        #expect(frame.bar(cells: 10) == "[#==|-:----]")
        #expect(frame.playedSummary == "breaks played 1/2")
        // A short break still gets a cell.
        let short = self.frame(streamTime: 0, cuepoints: [Cuepoint(startTime: 72, endTime: 73, isPlayed: false)])
        #expect(short.bar(cells: 10) == "[|------:--]")
    }

    @Test func aLiveFrameSpansTheMinutesAroundThePlayheadAndCountsPlayedBreaks() {
        let cues = [Cuepoint(startTime: 0, endTime: 12, isPlayed: true)]
        let frame = frame(live: true, streamTime: 30, cuepoints: cues)
        #expect(frame.lines()[0] == "stream ▶ 00:30 (live)   content 00:20")
        #expect(frame.playedSummary == "breaks played 1")
        // 120 s over 12 cells from 0: the break in the first cell, the playhead in the fourth.
        #expect(frame.bar(cells: 12) == "[##=|--------]")
    }

    @Test func aPipeGetsALineWhenTheAdOrTheEventChangesNotTheTime() {
        let first = frame(streamTime: 40)
        let later = frame(streamTime: 41)
        #expect(first.pipeKey == later.pipeKey)
        #expect(frame(inBreak: true, ui: Self.adUI).pipeKey != first.pipeKey)
        #expect(first.pipeLine == "[00:40] content | last event: STARTED vod_1_ad1")
    }

    @Test func aLivePlayerJoiningInABreakWaitsForTheChannelsNextContent() {
        // Breaks at every 36 s for 16 s; segments of 4 s; the player joins 12 s behind the last segment.
        // 100 s in: the window ends at 100, the join is at 88 = 16 into the cycle: content (a break ended at 88).
        #expect(LiveJoin.channelWait(elapsed: 100.2, interval: 36, breakDuration: 16, segment: 4, holdBack: 12) == 0)
        // 84 s in: the join is at 72, the start of a break: wait until the window ends at 88 + 12 = 100 (+0.5).
        let wait = LiveJoin.channelWait(elapsed: 84, interval: 36, breakDuration: 16, segment: 4, holdBack: 12)
        #expect(abs(wait - 16.5) < 1e-9)
        // 107.5 s in: the join is at 92 now but 96 a second later, both content (20 and 24 into the cycle).
        #expect(LiveJoin.channelWait(elapsed: 107.5, interval: 36, breakDuration: 16, segment: 4, holdBack: 12) == 0)
        // 119.5 s in: the join is at 104 (32 into the cycle), the last content segment, and at 108 (a break) a second later.
        let late = LiveJoin.channelWait(elapsed: 119.5, interval: 36, breakDuration: 16, segment: 4, holdBack: 12)
        #expect(abs(late - (136 + 0.5 - 119.5)) < 1e-9)
    }
}
