/// Shares one `String` per known tag and attribute name instead of building
/// a new one per line: names over 15 bytes would otherwise each cost a heap
/// allocation, which dominates parsing a short live window.
enum HLSKnownStrings {
    private static let names: [String] = [
        HLSTagName.header, HLSTagName.version, HLSTagName.independentSegments, HLSTagName.start,
        HLSTagName.define, HLSTagName.targetDuration, HLSTagName.mediaSequence, HLSTagName.discontinuitySequence,
        HLSTagName.playlistType, HLSTagName.iFramesOnly, HLSTagName.endList, HLSTagName.info, HLSTagName.byteRange,
        HLSTagName.discontinuity, HLSTagName.key, HLSTagName.map, HLSTagName.programDateTime, HLSTagName.gap,
        HLSTagName.bitrate, HLSTagName.part, HLSTagName.partInf, HLSTagName.serverControl, HLSTagName.preloadHint,
        HLSTagName.renditionReport, HLSTagName.skip, HLSTagName.dateRange, HLSTagName.media, HLSTagName.streamInf,
        HLSTagName.iFrameStreamInf, HLSTagName.sessionData, HLSTagName.sessionKey, HLSTagName.contentSteering,
        HLSTagName.cueOut, HLSTagName.cueOutCont, HLSTagName.cueIn, HLSTagName.oatclsSCTE35,
        HLSTagName.splicePointSCTE35, HLSTagName.asset,
        // Attribute names long enough to need the heap.
        "PLANNED-DURATION", "AVERAGE-BANDWIDTH", "CLOSED-CAPTIONS", "CAN-BLOCK-RELOAD", "CAN-SKIP-DATERANGES",
        "PART-HOLD-BACK", "CAN-SKIP-UNTIL", "SKIPPED-SEGMENTS", "KEYFORMATVERSIONS", "X-RESUME-OFFSET",
        "X-PLAYOUT-LIMIT", "HDCP-LEVEL", "VIDEO-RANGE", "ASSOC-LANGUAGE", "INSTREAM-ID", "CHARACTERISTICS",
        "PATHWAY-ID", "SERVER-URI", "X-ASSET-URI", "X-ASSET-LIST", "SCTE35-OUT", "SCTE35-IN", "SCTE35-CMD",
        "START-DATE", "END-DATE", "END-ON-NEXT", "PART-TARGET", "TIME-OFFSET", "BYTERANGE-START",
        "BYTERANGE-LENGTH", "INDEPENDENT", "AUTOSELECT", "RECENTLY-REMOVED-DATERANGES", "STABLE-VARIANT-ID",
        "STABLE-RENDITION-ID", "SUPPLEMENTAL-CODECS", "REQ-VIDEO-LAYOUT", "ALLOWED-CPC", "SCORE",
    ]

    /// Names grouped by UTF-8 length, each with its bytes.
    private static let byLength: [[(bytes: [UInt8], string: String)]] = {
        var table = [[(bytes: [UInt8], string: String)]](repeating: [], count: 32)
        for name in names where name.utf8.count < 32 {
            table[name.utf8.count].append((Array(name.utf8), name))
        }
        return table
    }()

    /// The string for `bytes[start..<end]`, shared when it is a known name.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let length = end - start
        // Small strings are stored inline, so only longer ones are worth a lookup.
        if length > 15, length < 32 {
            for candidate in byLength[length]
            where candidate.bytes.withUnsafeBufferPointer({ known in
                var index = 0
                while index < length, known[index] == bytes[start + index] { index += 1 }
                return index == length
            }) {
                return candidate.string
            }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
