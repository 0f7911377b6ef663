import Foundation
import Interlude
import InterludePlayer
import InterludeServer

/// `interlude demo`: the whole system on one machine, in three parts and
/// one report. Client-side: the reference ad stack in-process on loopback,
/// its demo VMAP (a skippable pre-roll whose UI is hideable, a mid-roll pod
/// of three, a post-roll) in the terminal player, and the collector's
/// beacons. Pod serving: a livestream through two breaks and a VOD stream
/// (pre-roll, two mid-rolls, post-roll, one seek that snaps back), each
/// registered and played through the SDK's public API with the HLS stream
/// display (``PodDemo``). Each owed event, verification and beacon must
/// arrive exactly once (exit 1 and the list otherwise).
enum DemoCommand {
    /// The demo's parts, in the order they run.
    enum Part: String, CaseIterable {
        case client, live, vod
    }

    struct Options {
        var playback = PlayCommand.Options(speed: 2, contentDuration: 60)
        var generatesMedia = true
        var dataDirectory =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("interlude/demo") ?? URL(fileURLWithPath: "interlude-demo-data")
        var parts = Part.allCases
        /// The VOD stream's player speed.
        var streamSpeed: Double = 4
        /// The live channel's clock and its player's speed.
        var liveSpeed: Double = 2
    }

    static let usage = """
        usage: interlude demo [--only client|live|vod] [--speed N] [--content-duration SECONDS] [--stream-speed N]
                              [--live-speed N] [--data-dir DIR] [--language TAG] [--no-media]
          --speed N           client-side content and ads (default 2, at most 100)
          --stream-speed N    the VOD pod-serving stream's player (default 4, at most 50)
          --live-speed N      the live channel's clock and its player (default 2, at most 3: the player
                              reloads the playlist once a target duration of wall time)
          --no-media          do not make the client-side creatives (the pod-serving media are always made)
        """

    static func parse(_ arguments: [String]) -> Result<Options, PlayCommand.UsageFailure> {
        typealias Failure = PlayCommand.UsageFailure
        var options = Options()
        var reader = ArgumentReader(arguments)
        func speed(_ flag: String, maximum: Double) throws(Failure) -> Double {
            let requirement = "a number above 0 and at most \(Int(maximum))"
            let text = try reader.value(of: flag, requirement)
            guard let value = Double(text), value > 0, value <= maximum else {
                throw Failure(message: "\(flag) needs \(requirement), got '\(text)'")
            }
            return value
        }
        do throws(Failure) {
            while let argument = reader.next() {
                if try reader.readPlaybackFlag(argument, into: &options.playback, limits: .demo) { continue }
                switch argument {
                case "--no-media": options.generatesMedia = false
                case "--data-dir":
                    options.dataDirectory = URL(fileURLWithPath: try reader.value(of: argument, "a directory"))
                case "--only":
                    let text = try reader.value(of: argument, "client, live or vod")
                    guard let part = Part(rawValue: text) else {
                        throw Failure(message: "--only needs client, live or vod, got '\(text)'")
                    }
                    options.parts = [part]
                case "--stream-speed": options.streamSpeed = try speed(argument, maximum: 50)
                case "--live-speed": options.liveSpeed = try speed(argument, maximum: 3)
                default: throw Failure(message: "unknown option '\(argument)'")
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(options)
    }

    @MainActor
    static func run(arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failure):
            InterludeCommand.writeError("interlude demo: \(failure.message)\n\(usage)")
            return 2
        }
        let started = Date()
        var sections: [String] = []
        var complete = true
        let podDirectory = options.dataDirectory.appendingPathComponent("pod-serving")
        let runsClient = options.parts.contains(.client)
        let liveSpeed = options.liveSpeed
        // Started first, so that a first run makes the pod-serving media while
        // the client-side part plays (its progress then is not drawn over the player).
        let podServer: Task<Result<AdServer, AdServerError>, Never>? =
            options.parts.contains(.live) || options.parts.contains(.vod)
            ? Task.detached {
                Result { () throws(AdServerError) in
                    try PodDemo.startServer(
                        dataDirectory: podDirectory, liveSpeed: liveSpeed, showsProgress: !runsClient)
                }
            } : nil
        if runsClient {
            guard let (text, ok) = await runClientSide(options) else { return 1 }
            sections.append(
                "client-side VMAP (content and ads at \(StreamFrame.number(options.playback.speed))×)" + text)
            complete = complete && ok
        }
        if let podServer {
            InterludeCommand.writeOutput(
                "\ninterlude demo: the pod-serving stack on loopback (media cached in \(podDirectory.path))")
            let server: AdServer
            switch await podServer.value {
            case .success(let started): server = started
            case .failure(let error):
                InterludeCommand.writeError("interlude demo: the pod-serving stack did not start: \(error.message)")
                return 1
            }
            defer { server.shutdown() }
            let language = options.playback.language
            if options.parts.contains(.live) {
                let report = await PodDemo.live(server: server, speed: options.liveSpeed, language: language)
                sections.append(report?.text() ?? "\n✘ live: the stream was not registered")
                complete = complete && report?.isComplete == true
            }
            if options.parts.contains(.vod) {
                let report = await PodDemo.vod(server: server, speed: options.streamSpeed, language: language)
                sections.append(report?.text() ?? "\n✘ VOD: the stream was not registered")
                complete = complete && report?.isComplete == true
            }
        }
        InterludeCommand.writeOutput("\n==== interlude demo report ====")
        for section in sections { InterludeCommand.writeOutput(section) }
        let seconds = String(format: "%.0f", Date().timeIntervalSince(started))
        let parts = options.parts.map(\.rawValue).joined(separator: ", ")
        InterludeCommand.writeOutput(
            complete
                ? "\n✔ interlude demo (\(parts)): everything owed arrived exactly once (\(seconds) s)"
                : "\n✘ interlude demo (\(parts)): something owed is missing or doubled, listed above (\(seconds) s)")
        return complete ? 0 : 1
    }

    /// The client-side part: the VMAP in the terminal player, then the
    /// collector's beacon report. Nil when the ad stack did not start.
    @MainActor
    static func runClientSide(_ options: Options) async -> (text: String, ok: Bool)? {
        var playback = options.playback
        let (speed, contentDuration) = (playback.speed, playback.contentDuration)
        let dataDirectory = options.dataDirectory
        InterludeCommand.writeOutput(
            "interlude demo: starting the reference ad stack on loopback (media cached in \(dataDirectory.path))")
        let server: AdServer
        do {
            server = try AdServer.start(
                AdServer.Configuration(
                    host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, catalog: .demo,
                    generatesMedia: options.generatesMedia,
                    http: HTTPServer.Configuration(threadCount: 2, logger: InterludeServer.SilentLogger()),
                    mediaProgress: { done, total, spec in
                        FileHandle.standardError.write(
                            Data("  making media \(done)/\(total): \(spec.creativeID) \(spec.height)p\n".utf8))
                    }))
        } catch {
            InterludeCommand.writeError("interlude demo: the ad stack did not start: \(error.message)")
            return nil
        }
        defer { server.shutdown() }
        let session = "demo-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        InterludeCommand.writeOutput(
            "interlude demo: \(server.baseURL)/vmap?session=\(session) — pre-roll, mid-roll pod of 3 at 30 s, post-roll"
        )
        InterludeCommand.writeOutput(
            "interlude demo: playing \(Int(contentDuration)) s of content at \(StreamFrame.number(speed))× "
                + "(the autopilot skips the pre-roll once it may)\n")
        playback.tag = URL(string: "\(server.baseURL)/vmap?session=\(session)")
        playback.autoSkip = true
        playback.sessionID = session
        let player = PlaySession(options: playback, output: TerminalOutput(json: false), httpClient: nil)
        let played = await player.run()
        let received: [InterludeServer.Beacon]
        do {
            try server.store.flush()
            received = try server.store.beacons(session: session)
        } catch {
            InterludeCommand.writeError("interlude demo: could not read the collector: \(error)")
            return ("\n✘ the collector could not be read: \(error)", false)
        }
        let report = BeaconReport(expected: BeaconReport.expectedBeacons(from: player.emitted), received: received)
        return (report.text(), played == 0 && report.isComplete)
    }
}
