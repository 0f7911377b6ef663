import Foundation

@testable import InterludeHLS

/// Playlists and SCTE-35 sections for the tests of the ad markers real
/// origins write: six 6 s segments dated from 2024-05-01T12:00:00Z, with
/// `markers[n]` written before segment n (`markers[6]` after the last).
enum OriginCueFixture {
    static func playlist(_ markers: [Int: String], dated: Bool = true) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:100\n"
        if dated { text += "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z\n" }
        for n in 0..<6 {
            if let marker = markers[n] { text += marker + "\n" }
            text += "#EXTINF:6.000,\nseg\(100 + n).ts\n"
        }
        if let marker = markers[6] { text += marker + "\n" }
        return try MediaPlaylist(parsing: text)
    }

    /// `START-DATE` of segment n.
    static func date(ofSegment n: Int) -> String {
        HLSDateFormat.format(Date(timeIntervalSince1970: 1_714_564_800 + Double(n) * 6))
    }

    /// A splice_insert leaving the network for `seconds` (auto-return), event 7.
    static func spliceOut(seconds: Double) -> SpliceInfoSection {
        SpliceInfoSection(
            command: .spliceInsert(
                SpliceInsert(
                    eventID: 7, spliceTime: SpliceTime(ptsTime: 900_000),
                    breakDuration: BreakDuration(autoReturn: true, duration: UInt64(seconds * 90_000)))))
    }

    /// The splice_insert that returns to the network, event 7.
    static let spliceIn = SpliceInfoSection(
        command: .spliceInsert(SpliceInsert(eventID: 7, isOutOfNetwork: false, spliceTime: SpliceTime(ptsTime: 0))))

    /// A time_signal with one segmentation descriptor per `(type, seconds)`.
    static func timeSignal(_ descriptors: [(type: UInt8, seconds: Double?)], event: UInt32 = 0x100)
        -> SpliceInfoSection
    {
        SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 900_000)),
            descriptors: descriptors.enumerated().map { offset, descriptor in
                .segmentation(
                    SegmentationDescriptor(
                        eventID: event + UInt32(offset), typeID: descriptor.type,
                        duration: descriptor.seconds.map { UInt64($0 * 90_000) }))
            })
    }

    /// The section's base64 with its last CRC byte changed, as a packager
    /// that rewrote a field without recomputing the CRC sends it.
    static func wrongCRC(_ section: SpliceInfoSection) -> [UInt8] {
        var bytes = section.encoded()
        bytes[bytes.count - 1] ^= 0x5A
        return bytes
    }
}
