// libFuzzer entry point for the MPEG-TS and ID3 readers (what
// HLSStreamDisplay reads timed metadata with), compiled into one module with
// the InterludeHLS sources by scripts/fuzz-hls.sh (so no import).
//
// Checked: the demuxer gives the same events whether the bytes arrive whole
// or in two chunks split anywhere (its documented promise); an ID3 tag that
// decodes re-encodes (as ID3v2.4) to a tag with the same frames; nothing traps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    var whole = TSDemuxer(maximumMetadataSize: 1 << 16)
    let wholeEvents = whole.feed(bytes) + whole.finish()
    if !bytes.isEmpty {
        // The split point comes from the input, so the fuzzer explores it too.
        let split = Int(bytes[0]) * bytes.count / 256
        var chunked = TSDemuxer(maximumMetadataSize: 1 << 16)
        let chunkedEvents = chunked.feed(bytes[..<split]) + chunked.feed(bytes[split...]) + chunked.finish()
        if chunkedEvents != wholeEvents {
            fatalError("splitting the input at \(split) of \(bytes.count) changed the demuxer's events")
        }
    }
    _ = try? TSSegmentSummary(segment: bytes)

    if let decoded = try? ID3Tag.decode(bytes[...]) {
        if let encoded = try? decoded.tag.encoded() {
            guard let again = try? ID3Tag.decode(encoded[...]) else {
                fatalError("a re-encoded ID3 tag does not decode: \(HLSHex.encode(encoded))")
            }
            if again.tag.frames != decoded.tag.frames {
                fatalError("a re-encoded ID3 tag decodes to other frames: \(HLSHex.encode(encoded))")
            }
        }
    }
    _ = try? PESPacket(bytes: bytes)
    return 0
}
