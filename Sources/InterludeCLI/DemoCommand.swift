import Foundation
import Interlude
import InterludePlayer
import InterludeServer

/// `interlude demo`: the whole system on one machine. Starts the reference ad
/// stack in-process on loopback, plays its demo VMAP (a skippable pre-roll
/// whose UI is hideable, a mid-roll pod of three, a post-roll) in the
/// terminal player, then asks the server's collector what it received and
/// checks every expected beacon arrived exactly once.
enum DemoCommand {
    static let usage =
        "usage: interlude demo [--speed N] [--content-duration SECONDS] [--data-dir DIR] [--language TAG] [--no-media]"

    @MainActor
    static func run(arguments: [String]) async -> Int32 {
        var options = PlayCommand.Options()
        options.speed = 2
        options.contentDuration = 60
        var generatesMedia = true
        var dataDirectory =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("interlude/demo") ?? URL(fileURLWithPath: "interlude-demo-data")
        var reader = ArgumentReader(arguments)
        do throws(PlayCommand.UsageFailure) {
            while let argument = reader.next() {
                if try reader.readPlaybackFlag(argument, into: &options, limits: .demo) { continue }
                switch argument {
                case "--no-media": generatesMedia = false
                case "--data-dir": dataDirectory = URL(fileURLWithPath: try reader.value(of: argument, "a directory"))
                default: throw PlayCommand.UsageFailure(message: "unknown option '\(argument)'")
                }
            }
        } catch {
            InterludeCommand.writeError("interlude demo: \(error.message)\n\(usage)")
            return 2
        }
        let (speed, contentDuration) = (options.speed, options.contentDuration)

        print("interlude demo: starting the reference ad stack on loopback (media cached in \(dataDirectory.path))")
        let server: AdServer
        do {
            server = try AdServer.start(
                AdServer.Configuration(
                    host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, catalog: .demo,
                    generatesMedia: generatesMedia,
                    http: HTTPServer.Configuration(threadCount: 2, logger: InterludeServer.SilentLogger()),
                    mediaProgress: { done, total, spec in
                        FileHandle.standardError.write(
                            Data("  making media \(done)/\(total): \(spec.creativeID) \(spec.height)p\n".utf8))
                    }))
        } catch {
            InterludeCommand.writeError("interlude demo: the ad stack did not start: \(error.message)")
            return 1
        }
        defer { server.shutdown() }
        let session = "demo-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        print(
            "interlude demo: \(server.baseURL)/vmap?session=\(session) — pre-roll, mid-roll pod of 3 at 30 s, post-roll"
        )
        print(
            "interlude demo: playing \(Int(contentDuration)) s of content at \(speed)× (the autopilot skips the pre-roll once it may)\n"
        )

        options.tag = URL(string: "\(server.baseURL)/vmap?session=\(session)")
        options.autoSkip = true
        options.sessionID = session
        let player = PlaySession(options: options, output: TerminalOutput(json: false), httpClient: nil)
        let played = await player.run()

        let received: [InterludeServer.Beacon]
        do {
            try server.store.flush()
            received = try server.store.beacons(session: session)
        } catch {
            InterludeCommand.writeError("interlude demo: could not read the collector: \(error)")
            return 1
        }
        let report = BeaconReport(expected: BeaconReport.expectedBeacons(from: player.emitted), received: received)
        print(report.text())
        return played == 0 && report.isComplete ? 0 : 1
    }
}
