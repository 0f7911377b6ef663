import Foundation
import InterludeServer

@testable import InterludeHLS

/// The MPEG-TS fixtures and the ffmpeg tools the transport stream tests use.
///
/// `Fixtures/MPEGTS/h264-aac-1s.ts` (14,664 bytes, 78 packets) was made with
/// ```
/// ffmpeg -f lavfi -i testsrc2=size=160x90:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 \
///   -t 1 -c:v libx264 -preset veryfast -g 30 -b:v 24k -maxrate 30k -bufsize 30k \
///   -c:a aac -b:a 16k -ac 1 -f mpegts h264-aac-1s.ts
/// ```
/// (ffmpeg 5.1). Its facts below were read with ffprobe and xxd, not with this module:
/// packets SDT (PID 0x11), PAT, PMT (PID 0x1000), then media; PAT/PMT
/// repeated, 10 of each; H.264 on 0x0100, AAC on 0x0101, PCR on 0x0100;
/// the first video PES has PTS 132000 (DTS 126000), the first audio PES 130080.
enum MPEGTSFixture {
    static let directory = Fixture.testsDirectory.appendingPathComponent("Fixtures/MPEGTS")

    static var segment: [UInt8] {
        (try? [UInt8](Data(contentsOf: directory.appendingPathComponent("h264-aac-1s.ts")))) ?? []
    }

    static let packetCount = 78
    static let programMapPID: UInt16 = 0x1000
    static let videoPID: UInt16 = 0x0100
    static let audioPID: UInt16 = 0x0101
    static let firstVideoPTS: UInt64 = 132_000
    static let firstAudioPTS: UInt64 = 130_080
    /// Packet indices of the PMT packets.
    static let programMapPacketIndices = [2, 15, 20, 25, 30, 42, 47, 53, 64, 69]

    /// ffmpeg's PAT for one program (number 1, PMT PID 0x1000), as in the fixture's packet 1.
    static let patSection: [UInt8] = [
        0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xF0, 0x00, 0x2A, 0xB1, 0x04, 0xB2,
    ]
    /// ffmpeg's PMT for H.264 on 0x0100 and AAC on 0x0101, PCR on 0x0100, as in packet 2.
    static let pmtSection: [UInt8] = [
        0x02, 0xB0, 0x17, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00, 0x1B, 0xE1, 0x00, 0xF0,
        0x00, 0x0F, 0xE1, 0x01, 0xF0, 0x00, 0x2F, 0x44, 0xB9, 0x9B,
    ]

    /// The path of an executable on PATH, or nil.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a tool; returns its exit status, standard output and standard error.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data, error: String)
    {
        // posix_spawn, not Foundation's `Process`, whose `run()` crashes now and
        // then on Linux (swift-corelibs-foundation #5472).
        let outcome = try ChildProcess.run(executable, arguments)
        return (outcome.status, Data(outcome.output), String(decoding: outcome.errors, as: UTF8.self))
    }

    /// Writes bytes to a file in a fresh temporary directory, runs `body` with
    /// its path, then removes the directory.
    static func withTemporaryFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("segment.ts")
        try Data(bytes).write(to: url)
        return try body(url.path)
    }

    /// The packet at `index` of `bytes`.
    static func packet(_ bytes: [UInt8], _ index: Int) -> [UInt8] {
        Array(bytes[(index * 188)..<((index + 1) * 188)])
    }

    /// The PIDs of the packets of `bytes`, in order (whole packets only).
    static func pids(_ bytes: [UInt8]) -> [UInt16] {
        stride(from: 0, to: bytes.count - 187, by: 188).map {
            UInt16(bytes[$0 + 1] & 0x1F) << 8 | UInt16(bytes[$0 + 2])
        }
    }
}
