/// A descriptor of a PMT's program info or elementary stream loop
/// (ISO/IEC 13818-1 section 2.6): a tag and its data bytes, kept as read.
public struct TSDescriptor: Sendable, Hashable {
    /// `descriptor_tag`.
    public var tag: UInt8
    /// The bytes after `descriptor_length` (at most 255 when written).
    public var data: [UInt8]

    /// Creates a descriptor from its tag and data.
    public init(tag: UInt8, data: [UInt8]) {
        self.tag = tag
        self.data = data
    }

    /// `metadata_pointer_descriptor` tag, 0x25 (section 2.6.58).
    public static let metadataPointerTag: UInt8 = 0x25
    /// `metadata_descriptor` tag, 0x26 (section 2.6.60).
    public static let metadataTag: UInt8 = 0x26
    /// `registration_descriptor` tag, 0x05 (section 2.6.8).
    public static let registrationTag: UInt8 = 0x05

    /// The format identifier `ID3 ` (0x49443320) registered for ID3 metadata,
    /// used as both `metadata_application_format_identifier` and
    /// `metadata_format_identifier` (Apple, Timed Metadata for HTTP Live Streaming, 2.2).
    public static let id3FormatIdentifier: UInt32 = 0x4944_3320

    /// The five format fields both metadata descriptors start with for ID3:
    /// `metadata_application_format` 0xFFFF and its identifier `ID3 `,
    /// `metadata_format` 0xFF and its identifier `ID3 `, `metadata_service_id` 0.
    private static let id3FormatFields: [UInt8] = [
        0xFF, 0xFF, 0x49, 0x44, 0x33, 0x20, 0xFF, 0x49, 0x44, 0x33, 0x20, 0x00,
    ]

    /// The `metadata_pointer_descriptor` Apple's "Timed Metadata for HTTP
    /// Live Streaming" puts in a program's info loop: ID3 formats,
    /// `metadata_service_id` 0, no locator record, `MPEG_carriage_flags` 0
    /// (carried in this transport stream), and the program number.
    public static func id3MetadataPointer(programNumber: UInt16) -> TSDescriptor {
        // metadata_locator_record_flag 0, MPEG_carriage_flags 00, reserved 11111.
        TSDescriptor(
            tag: metadataPointerTag,
            data: id3FormatFields + [0x1F, UInt8(programNumber >> 8), UInt8(programNumber & 0xFF)])
    }

    /// The `metadata_descriptor` Apple's "Timed Metadata for HTTP Live
    /// Streaming" puts on the ID3 elementary stream: ID3 formats,
    /// `metadata_service_id` 0, no decoder configuration, no DSM-CC.
    public static let id3Metadata = TSDescriptor(
        // decoder_config_flags 000, DSM-CC_flag 0, reserved 1111.
        tag: metadataTag, data: id3FormatFields + [0x0F])

    /// The `metadata_format_identifier` of a metadata or metadata pointer
    /// descriptor, or the `format_identifier` of a registration descriptor;
    /// nil for other descriptors or when the field is absent.
    public var formatIdentifier: UInt32? {
        func word(at index: Int) -> UInt32? {
            guard index + 4 <= data.count else { return nil }
            return data[index..<(index + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        switch tag {
        case Self.registrationTag:
            return word(at: 0)
        case Self.metadataTag, Self.metadataPointerTag:
            guard data.count >= 3 else { return nil }
            // metadata_application_format (16), its identifier when 0xFFFF, then metadata_format (8).
            let formatIndex = data[0] == 0xFF && data[1] == 0xFF ? 6 : 2
            guard formatIndex < data.count, data[formatIndex] == 0xFF else { return nil }
            return word(at: formatIndex + 1)
        default:
            return nil
        }
    }

    /// True for a metadata or metadata pointer descriptor (or a registration
    /// descriptor) naming the `ID3 ` format.
    public var describesID3: Bool { formatIdentifier == Self.id3FormatIdentifier }
}

/// The `stream_type` of an elementary stream in a PMT (ISO/IEC 13818-1
/// table 2-34, with the values HLS packagers use).
public struct TSStreamType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The byte as written in the PMT.
    public var rawValue: UInt8

    /// Creates a stream type from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01, MPEG-1 video.
    public static let mpeg1Video = TSStreamType(rawValue: 0x01)
    /// 0x02, MPEG-2 video.
    public static let mpeg2Video = TSStreamType(rawValue: 0x02)
    /// 0x03, MPEG-1 audio.
    public static let mpeg1Audio = TSStreamType(rawValue: 0x03)
    /// 0x04, MPEG-2 audio.
    public static let mpeg2Audio = TSStreamType(rawValue: 0x04)
    /// 0x06, PES packets with private data (AC-3, subtitles… named by descriptors).
    public static let privatePES = TSStreamType(rawValue: 0x06)
    /// 0x0F, AAC audio in ADTS.
    public static let aacADTS = TSStreamType(rawValue: 0x0F)
    /// 0x10, MPEG-4 part 2 video.
    public static let mpeg4Video = TSStreamType(rawValue: 0x10)
    /// 0x11, AAC audio in LATM.
    public static let aacLATM = TSStreamType(rawValue: 0x11)
    /// 0x15, metadata carried in PES packets: the timed ID3 stream of HLS.
    public static let metadataPES = TSStreamType(rawValue: 0x15)
    /// 0x1B, H.264 / AVC video.
    public static let h264 = TSStreamType(rawValue: 0x1B)
    /// 0x24, H.265 / HEVC video.
    public static let h265 = TSStreamType(rawValue: 0x24)
    /// 0x81, AC-3 audio (ATSC).
    public static let ac3 = TSStreamType(rawValue: 0x81)
    /// 0x86, SCTE-35 splice information.
    public static let scte35 = TSStreamType(rawValue: 0x86)
    /// 0x87, E-AC-3 audio (ATSC).
    public static let eac3 = TSStreamType(rawValue: 0x87)
    /// 0xC1, 0xC2, 0xCF: the SAMPLE-AES variants of AC-3, E-AC-3 and AAC.
    static let sampleAESAudio: Set<UInt8> = [0xC1, 0xC2, 0xCF]

    /// True for the video types above (and SAMPLE-AES H.264, 0xDB).
    public var isVideo: Bool { [0x01, 0x02, 0x10, 0x1B, 0x24, 0xDB].contains(rawValue) }

    /// True for the audio types above (and their SAMPLE-AES variants).
    public var isAudio: Bool {
        [0x03, 0x04, 0x0F, 0x11, 0x81, 0x87].contains(rawValue) || Self.sampleAESAudio.contains(rawValue)
    }

    /// The type as `0x1b`.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}
