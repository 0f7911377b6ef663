/// What the parser needs to know about a known tag, found by comparing the
/// name's bytes instead of hashing a `String` (several set lookups per line
/// were most of the cost of parsing a short live window).
struct HLSTagTraits: OptionSet {
    let rawValue: UInt16

    /// The value is an attribute list.
    static let attributeList = HLSTagTraits(rawValue: 1 << 0)
    /// The value is one decimal-integer.
    static let integer = HLSTagTraits(rawValue: 1 << 1)
    /// The value is an ISO 8601 date.
    static let date = HLSTagTraits(rawValue: 1 << 2)
    /// Only a multivariant playlist holds it.
    static let multivariant = HLSTagTraits(rawValue: 1 << 3)
    /// Only a media playlist holds it.
    static let media = HLSTagTraits(rawValue: 1 << 4)
    /// It belongs to the segment that follows it.
    static let segment = HLSTagTraits(rawValue: 1 << 5)
    /// EXT-X-DEFINE.
    static let define = HLSTagTraits(rawValue: 1 << 6)
    /// EXT-X-STREAM-INF.
    static let streamInf = HLSTagTraits(rawValue: 1 << 7)
    /// EXT-X-DISCONTINUITY.
    static let discontinuity = HLSTagTraits(rawValue: 1 << 8)
    /// EXT-X-MEDIA-SEQUENCE.
    static let mediaSequence = HLSTagTraits(rawValue: 1 << 9)
    /// EXT-X-DISCONTINUITY-SEQUENCE.
    static let discontinuitySequence = HLSTagTraits(rawValue: 1 << 10)
    /// EXT-X-SKIP.
    static let skip = HLSTagTraits(rawValue: 1 << 11)
}

enum HLSTagCatalog {
    struct Entry {
        let bytes: [UInt8]
        let name: String
        let traits: HLSTagTraits
        /// The last eight bytes of the name (little-endian), compared first.
        let suffix: UInt64
    }

    private static let entries: [(String, HLSTagTraits)] = [
        (HLSTagName.header, []),
        (HLSTagName.version, [.integer]),
        (HLSTagName.independentSegments, []),
        (HLSTagName.start, [.attributeList]),
        (HLSTagName.define, [.attributeList, .define]),
        (HLSTagName.targetDuration, [.integer, .media]),
        (HLSTagName.mediaSequence, [.integer, .media, .mediaSequence]),
        (HLSTagName.discontinuitySequence, [.integer, .media, .discontinuitySequence]),
        (HLSTagName.playlistType, [.media]),
        (HLSTagName.iFramesOnly, [.media]),
        (HLSTagName.endList, [.media]),
        (HLSTagName.info, [.media, .segment]),
        (HLSTagName.byteRange, [.media, .segment]),
        (HLSTagName.discontinuity, [.media, .segment, .discontinuity]),
        (HLSTagName.key, [.attributeList, .media, .segment]),
        (HLSTagName.map, [.attributeList, .media, .segment]),
        (HLSTagName.programDateTime, [.date, .media, .segment]),
        (HLSTagName.gap, [.media, .segment]),
        (HLSTagName.bitrate, [.integer, .media, .segment]),
        (HLSTagName.part, [.attributeList, .media, .segment]),
        (HLSTagName.partInf, [.attributeList, .media]),
        (HLSTagName.serverControl, [.attributeList, .media]),
        (HLSTagName.preloadHint, [.attributeList, .media]),
        (HLSTagName.renditionReport, [.attributeList, .media]),
        (HLSTagName.skip, [.attributeList, .media, .segment, .skip]),
        (HLSTagName.dateRange, [.attributeList, .media, .segment]),
        (HLSTagName.media, [.attributeList, .multivariant]),
        (HLSTagName.streamInf, [.attributeList, .multivariant, .streamInf]),
        (HLSTagName.iFrameStreamInf, [.attributeList, .multivariant]),
        (HLSTagName.sessionData, [.attributeList, .multivariant]),
        (HLSTagName.sessionKey, [.attributeList, .multivariant]),
        (HLSTagName.contentSteering, [.attributeList, .multivariant]),
        (HLSTagName.cueOut, [.media, .segment]),
        (HLSTagName.cueOutCont, [.media, .segment]),
        (HLSTagName.cueIn, [.media, .segment]),
        (HLSTagName.oatclsSCTE35, [.media, .segment]),
        (HLSTagName.splicePointSCTE35, [.media, .segment]),
        (HLSTagName.asset, [.attributeList, .media, .segment]),
        (HLSTagName.adobeCue, [.media, .segment]),
        (HLSTagName.adobeCueCont, [.media, .segment]),
        (HLSTagName.scte35, [.media, .segment]),
    ]

    /// Entries grouped by name length.
    private static let byLength: [[Entry]] = {
        var table = [[Entry]](repeating: [], count: 32)
        for (name, traits) in entries {
            let bytes = Array(name.utf8)
            var suffix: UInt64 = 0
            if bytes.count >= 8 {
                for (shift, byte) in bytes[(bytes.count - 8)...].enumerated() {
                    suffix |= UInt64(byte) << UInt64(shift * 8)
                }
            }
            table[bytes.count].append(Entry(bytes: bytes, name: name, traits: traits, suffix: suffix))
        }
        return table
    }()

    /// The known tag named by `bytes[start..<end]`, or nil.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Entry? {
        let length = end - start
        guard length < 32 else { return nil }
        let candidates = byLength[length]
        if length >= 8, let base = bytes.baseAddress {
            // Names of eight bytes or more differ in their last eight (EXT-X- is shared).
            let suffix = UnsafeRawPointer(base + end - 8).loadUnaligned(as: UInt64.self)
            for candidate in candidates where candidate.suffix == suffix {
                let matches = candidate.bytes.withUnsafeBufferPointer { known in
                    var index = length - 9
                    while index >= 0, known[index] == bytes[start + index] { index -= 1 }
                    return index < 0
                }
                if matches { return candidate }
            }
            return nil
        }
        for candidate in candidates {
            // Names share the `EXT-X-` prefix, so compare from the end.
            let matches = candidate.bytes.withUnsafeBufferPointer { known in
                var index = length - 1
                while index >= 0, known[index] == bytes[start + index] { index -= 1 }
                return index < 0
            }
            if matches { return candidate }
        }
        return nil
    }
}
