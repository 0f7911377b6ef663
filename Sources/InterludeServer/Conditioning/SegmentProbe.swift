import Foundation

/// What conditioning needs to know of one MPEG-TS segment ffmpeg wrote: the
/// video PTS range and, from the first segment, the codec parameters in its
/// SPS and ADTS headers (so `CODECS` states what was written, not what was
/// asked for). Reads only PAT, PMT and PES headers (ISO/IEC 13818-1 2.4).
struct SegmentProbe: Sendable, Hashable {
    /// The first video PTS, 90 kHz.
    var firstVideoPTS: UInt64
    /// The largest video PTS, 90 kHz.
    var lastVideoPTS: UInt64
    /// Video access units (PES packets) in the segment.
    var videoFrames: Int
    /// `avc1.PPCCLL` from the first SPS, if one was seen.
    var videoCodec: String?
    /// `mp4a.40.N` from the first ADTS header, if one was seen.
    var audioCodec: String?
    /// Audio sample rate and channel count from ADTS.
    var audioSampleRate: Int?
    var audioChannels: Int?

    static let packetSize = 188

    /// Probes `bytes`; nil when they hold no video PES with a PTS.
    static func probe(_ bytes: [UInt8]) -> SegmentProbe? {
        var pmtPID: Int?
        var videoPID: Int?
        var audioPID: Int?
        var first: UInt64?
        var last: UInt64 = 0
        var frames = 0
        var videoCodec: String?
        var audioCodec: String?
        var sampleRate: Int?
        var channels: Int?
        var offset = 0
        while offset + packetSize <= bytes.count {
            defer { offset += packetSize }
            guard bytes[offset] == 0x47 else { continue }
            let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
            let unitStart = bytes[offset + 1] & 0x40 != 0
            let adaptation = (bytes[offset + 3] >> 4) & 0x3
            var payload = offset + 4
            if adaptation & 0x2 != 0 { payload += 1 + Int(bytes[offset + 4]) }
            guard adaptation & 0x1 != 0, payload < offset + packetSize else { continue }
            let end = offset + packetSize
            if pid == 0, unitStart {
                pmtPID = programMapPID(bytes, payload: payload, end: end)
            } else if pid == pmtPID, unitStart {
                (videoPID, audioPID) = elementaryPIDs(bytes, payload: payload, end: end)
            } else if pid == videoPID, unitStart, let (pts, data) = pesHeader(bytes, payload: payload, end: end) {
                frames += 1
                if first == nil { first = pts }
                last = max(last, pts)
                if videoCodec == nil { videoCodec = avcCodec(bytes, from: data, end: end) }
            } else if pid == audioPID, unitStart, audioCodec == nil,
                let (_, data) = pesHeader(bytes, payload: payload, end: end), data + 4 <= end,
                bytes[data] == 0xFF, bytes[data + 1] & 0xF0 == 0xF0
            {
                let objectType = Int(bytes[data + 2] >> 6) + 1
                let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
                let rateIndex = Int(bytes[data + 2] >> 2) & 0xF
                audioCodec = "mp4a.40.\(objectType)"
                sampleRate = rateIndex < rates.count ? rates[rateIndex] : nil
                channels = Int(bytes[data + 2] & 0x1) << 2 | Int(bytes[data + 3] >> 6)
            }
        }
        guard let first else { return nil }
        return SegmentProbe(
            firstVideoPTS: first, lastVideoPTS: last, videoFrames: frames, videoCodec: videoCodec,
            audioCodec: audioCodec, audioSampleRate: sampleRate, audioChannels: channels)
    }

    /// The PMT PID of the first program in a PAT section.
    private static func programMapPID(_ bytes: [UInt8], payload: Int, end: Int) -> Int? {
        let section = payload + 1 + Int(bytes[payload])
        guard section + 12 <= end else { return nil }
        // table_id … last_section_number is 8 bytes; then program_number (2) and PID (2).
        var entry = section + 8
        while entry + 4 <= end {
            let program = Int(bytes[entry]) << 8 | Int(bytes[entry + 1])
            if program != 0 { return Int(bytes[entry + 2] & 0x1F) << 8 | Int(bytes[entry + 3]) }
            entry += 4
        }
        return nil
    }

    /// The first H.264 (0x1B) and AAC ADTS (0x0F) PIDs of a PMT section.
    private static func elementaryPIDs(_ bytes: [UInt8], payload: Int, end: Int) -> (Int?, Int?) {
        let section = payload + 1 + Int(bytes[payload])
        guard section + 12 <= end else { return (nil, nil) }
        let sectionLength = Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2])
        let sectionEnd = min(end, section + 3 + sectionLength - 4)
        let programInfoLength = Int(bytes[section + 10] & 0x0F) << 8 | Int(bytes[section + 11])
        var entry = section + 12 + programInfoLength
        var video: Int?
        var audio: Int?
        while entry + 5 <= sectionEnd {
            let type = bytes[entry]
            let pid = Int(bytes[entry + 1] & 0x1F) << 8 | Int(bytes[entry + 2])
            if type == 0x1B, video == nil { video = pid }
            if type == 0x0F, audio == nil { audio = pid }
            entry += 5 + (Int(bytes[entry + 3] & 0x0F) << 8 | Int(bytes[entry + 4]))
        }
        return (video, audio)
    }

    /// The PTS of a PES starting at `payload` and where its data begins.
    private static func pesHeader(_ bytes: [UInt8], payload: Int, end: Int) -> (UInt64, Int)? {
        guard payload + 14 <= end, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
            bytes[payload + 7] & 0x80 != 0
        else { return nil }
        let p = payload + 9
        let pts =
            UInt64(bytes[p] >> 1 & 0x07) << 30 | UInt64(bytes[p + 1]) << 22 | UInt64(bytes[p + 2] >> 1) << 15
            | UInt64(bytes[p + 3]) << 7 | UInt64(bytes[p + 4] >> 1)
        return (pts, payload + 9 + Int(bytes[payload + 8]))
    }

    /// `avc1.PPCCLL` from the first SPS NAL unit (type 7) in `bytes[from..<end]`.
    private static func avcCodec(_ bytes: [UInt8], from start: Int, end: Int) -> String? {
        var index = start
        while index + 6 < end {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, bytes[index + 3] & 0x1F == 7 {
                let hex = [bytes[index + 4], bytes[index + 5], bytes[index + 6]].map {
                    let text = String($0, radix: 16)
                    return text.count == 1 ? "0" + text : text
                }
                return "avc1." + hex.joined()
            }
            index += 1
        }
        return nil
    }
}
