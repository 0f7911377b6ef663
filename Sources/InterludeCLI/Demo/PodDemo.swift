import Foundation
import Interlude
import InterludeServer

/// The demo's pod-serving half: a server on a small catalog (the test
/// catalog's short creatives, 30 s title and 24 s live loop, so its media
/// is made in about a minute and cached by content hash), a livestream
/// played through two breaks and a VOD stream with a pre-roll, two
/// mid-rolls and a post-roll, each through the SDK's public API with the
/// HLS stream display, then a ``PodStreamReport`` each.
enum PodDemo {
    static let channelID = "interlude-demo-live"
    static let titleID = "test-film"
    static let breakInterval: Double = 36
    static let breakDuration: Double = 16
    static let podDuration: Double = 16
    static let midrollOffsets: [Double] = [8, 20]
    /// The VOD autopilot's seek, in content seconds: over the unplayed mid-roll at 8 s.
    static let seek: (from: TimeInterval, to: TimeInterval) = (2, 14)

    /// `Catalog.podServingTest` with the demo's breaks: VOD pods of 16 s
    /// (the three creatives, 3 + 5 + 8 s) before, at 8 s, at 20 s and after
    /// the 30 s title; a live channel on the same 24 s loop with a 16 s
    /// break every 36 s of channel time, its clock `liveSpeed` times the
    /// wall clock; metadata polled every 2 s.
    static func catalog(liveSpeed: Double) -> Catalog {
        var catalog = Catalog.podServingTest
        catalog.adRules = AdRules(
            preroll: BreakRule(podSize: 3), midrolls: midrollOffsets.map { BreakRule(offset: $0, podSize: 3) },
            postroll: BreakRule(podSize: 3))
        catalog.content.channels = [
            CatalogChannel(
                id: channelID, title: "Test Live", sourceDuration: 24, windowSegments: 5,
                breakInterval: breakInterval, breakDuration: breakDuration, signaling: .dateRange, speed: liveSpeed)
        ]
        var pods = PodServingCatalog.defaults(for: catalog.content)
        pods.podRules = PodAdRules(maxAds: 3, vodPodDuration: podDuration)
        pods.sessions = PodSessionSettings(pollingFrequency: 2)
        catalog.podServing = pods
        return catalog
    }

    /// Starts the pod-serving server (making its media on the first run,
    /// with a line per job on stderr when `showsProgress`).
    static func startServer(dataDirectory: URL, liveSpeed: Double, showsProgress: Bool) throws(AdServerError)
        -> AdServer
    {
        try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, catalog: catalog(liveSpeed: liveSpeed),
                generatesMedia: true,
                http: HTTPServer.Configuration(threadCount: 2, logger: InterludeServer.SilentLogger()),
                buildProgress: { event in
                    guard showsProgress, event.phase == .started else { return }
                    FileHandle.standardError.write(Data("  making stream media: \(event)\n".utf8))
                }))
    }

    /// Plays the livestream through two breaks and reports it.
    @MainActor
    static func live(server: AdServer, speed: Double, language: String) async -> PodStreamReport? {
        let segment = server.media.segmentDuration
        let elapsed = Date().timeIntervalSince(CatalogChannel.defaultEpoch) * speed
        let wait = LiveJoin.channelWait(
            elapsed: elapsed, interval: breakInterval, breakDuration: breakDuration, segment: segment,
            holdBack: 3 * segment)
        InterludeCommand.writeOutput(
            "interlude demo: live — channel \(channelID) (a \(Int(breakDuration)) s break every \(Int(breakInterval)) s), "
                + "the channel clock at \(StreamFrame.number(speed))× and the player at \(StreamFrame.number(speed))×; "
                + "through two breaks")
        if wait > 0 {
            InterludeCommand.writeOutput(
                "interlude demo: waiting \(String(format: "%.1f", wait / speed)) s for the channel to be in content "
                    + "where a player joins")
            try? await Task.sleep(nanoseconds: UInt64(wait / speed * 1e9))
        }
        var options = StreamCommand.Options(
            kind: .live(customAssetKey: channelID), serverURL: URL(string: server.baseURL)!,
            template: "\(server.baseURL)/vtp/stream_id/\(StreamCommand.streamIDMacro)/live/\(channelID).m3u8")
        options.speed = speed
        options.language = language
        let session = StreamSession(
            options: options, output: TerminalOutput(json: false, command: "interlude demo"),
            autopilot: StreamSession.Autopilot(stopAfterBreaks: 2, timeout: 180))
        let code = await session.run()
        return await report(
            of: session, server: server, label: "live \(channelID)", owing: .breaksWithEvidence, notes: [],
            extraProblems: exitProblems(code))
    }

    /// Plays the VOD stream to its end with one seek over an unplayed mid-roll, and reports it.
    @MainActor
    static func vod(server: AdServer, speed: Double, language: String) async -> PodStreamReport? {
        InterludeCommand.writeOutput(
            "interlude demo: VOD — \(titleID) (30 s) with \(Int(podDuration)) s pods before, at "
                + midrollOffsets.map { "0:\(String(format: "%02d", Int($0)))" }.joined(separator: " and ")
                + " and after it, played at \(StreamFrame.number(speed))×; after the pre-roll, at content "
                + "\(StreamFrame.clock(seek.from)) the autopilot seeks to \(StreamFrame.clock(seek.to)), over the "
                + "unplayed mid-roll at 0:08: snapback plays it, then resumes there")
        var options = StreamCommand.Options(
            kind: .vod, serverURL: URL(string: server.baseURL)!,
            template: "\(server.baseURL)/vtp/stream_id/\(StreamCommand.streamIDMacro)/video/\(titleID).m3u8")
        options.speed = speed
        options.language = language
        let session = StreamSession(
            options: options, output: TerminalOutput(json: false, command: "interlude demo"),
            autopilot: StreamSession.Autopilot(seek: seek, timeout: 180))
        let code = await session.run()
        let (notes, problems) = seekNotes(session.seekRecord)
        return await report(
            of: session, server: server, label: "VOD \(titleID)", owing: .everyBreak, notes: notes,
            extraProblems: problems + exitProblems(code))
    }

    /// A session that did not end as planned (a timeout, a stream that could not play).
    static func exitProblems(_ code: Int32) -> [PodStreamReport.Problem] {
        code == 0 ? [] : [PodStreamReport.Problem(what: "the stream session ending with status 0", owed: 1, got: 0)]
    }

    /// The seek's lines and, when it did not snap back and resume, its problem.
    static func seekNotes(_ record: StreamSession.SeekRecord?) -> (
        [String], [PodStreamReport.Problem]
    ) {
        guard let record else {
            return (
                [], [PodStreamReport.Problem(what: "the autopilot's seek over the unplayed mid-roll", owed: 1, got: 0)]
            )
        }
        let from = StreamFrame.clock(record.fromContent)
        let to = StreamFrame.clock(record.toContent)
        guard record.accepted, let snapped = record.snappedBreakID, let resumed = record.resumedContent else {
            return (
                [
                    "✘ seek \(from) → \(to) (content): accepted \(record.accepted), snapped back to \(record.snappedBreakID ?? "none")"
                ],
                [PodStreamReport.Problem(what: "snapback of the seek \(from) → \(to)", owed: 1, got: 0)]
            )
        }
        // The display resumes at the target's segment-exact time; a tick later it has moved on a little.
        let resumedWhere = abs(resumed - record.toContent) <= 2
        let line =
            "\(resumedWhere ? "✔" : "✘") seek \(from) → \(to) (content) over the unplayed \(snapped): snapped back, "
            + "played \(snapped) from its start, resumed at \(StreamFrame.clock(resumed))"
        return (
            [line],
            resumedWhere ? [] : [PodStreamReport.Problem(what: "resume at \(to) after \(snapped)", owed: 1, got: 0)]
        )
    }

    /// Waits for the server to send the stream's beacons, then gathers what the server and the collector hold.
    @MainActor
    static func report(
        of session: StreamSession, server: AdServer, label: String, owing: PodStreamReport.Owing, notes: [String],
        extraProblems: [PodStreamReport.Problem] = []
    ) async -> PodStreamReport? {
        guard let streamID = session.streamID else { return nil }
        let store = server.sessionStore
        // Server-side beacons go out in the background: wait (up to 20 s) until none is pending.
        for _ in 0..<100 {
            let pending = (try? store.activity(streamID: streamID).beaconsPending.values.reduce(0, +)) ?? 0
            if pending == 0 { break }
            try? await Task.sleep(nanoseconds: 200_000_000)
        }
        let decisions = (try? store.decisions(streamID: streamID)) ?? []
        let activity = (try? store.activity(streamID: streamID)) ?? PodStreamActivity()
        var beacons: [InterludeServer.Beacon] = []
        do {
            try server.store.flush()
            beacons = try server.store.beacons(session: streamID)
        } catch {
            FileHandle.standardError.write(Data("interlude demo: could not read the collector: \(error)\n".utf8))
        }
        var problems = extraProblems
        for error in session.errors {
            problems.append(
                PodStreamReport.Problem(
                    what: "error \(error.code.rawValue): \(error.message ?? "no message")", owed: 0, got: 1))
        }
        return PodStreamReport(
            label: label, streamID: streamID, decisions: decisions, appEvents: session.received.map(\.event),
            verificationsSent: session.pings.verificationsSent, verified: Set(activity.verifiedEvents.keys),
            beacons: beacons, owing: owing, notes: notes, extraProblems: problems)
    }
}

/// When a player joining a live channel lands in content.
enum LiveJoin {
    /// Channel seconds to wait, from `elapsed` channel seconds since the
    /// epoch, until a player that starts `holdBack` behind the window's
    /// end (the last complete segment) starts in content, at least one
    /// segment before the next break. Breaks start at every multiple of
    /// `interval` and last `breakDuration`. 0 when it already does; the
    /// check also holds one second later (the registration's round trip).
    static func channelWait(
        elapsed: Double, interval: Double, breakDuration: Double, segment: Double, holdBack: Double
    ) -> Double {
        guard interval > 0, segment > 0, elapsed.isFinite else { return 0 }
        func joinPhase(_ time: Double) -> Double {
            let join = (time / segment).rounded(.down) * segment - holdBack
            let phase = join.truncatingRemainder(dividingBy: interval)
            return phase < 0 ? phase + interval : phase
        }
        func inContent(_ phase: Double) -> Bool { phase >= breakDuration - 1e-9 && phase <= interval - segment + 1e-9 }
        if inContent(joinPhase(elapsed)), inContent(joinPhase(elapsed + 1)) { return 0 }
        // The next time the join point is the end of a break, plus half a second.
        var target =
            ((elapsed - holdBack - breakDuration) / interval).rounded(.down) * interval + breakDuration + holdBack
        while target + 0.5 <= elapsed { target += interval }
        return target + 0.5 - elapsed
    }
}
