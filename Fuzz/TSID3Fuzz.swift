// libFuzzer entry point for the MPEG-TS demuxer, the ID3v2 reader and the
// PSI/PES parsers, compiled into one module with the InterludeHLS sources by
// scripts/fuzz-hls.sh (so no import). Invariants checked besides "no crash":
// - the demuxer reports the same events whether fed whole or in chunks;
// - an ID3 tag that reads writes back to bytes that read as the same frames;
// - a PAT or PMT that reads writes back to a section that reads the same;
// - on a clean one-program segment, metadata the injector adds reads back.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkDemuxerChunking(bytes)
    checkID3RoundTrip(bytes)
    checkSectionRoundTrips(bytes)
    _ = try? PESPacket(bytes: bytes)
    _ = try? TSPacket(bytes: bytes)
    checkInjection(bytes)
    return 0
}

private func demux(_ bytes: [UInt8], chunk: Int?) -> (events: [TSDemuxEvent], demuxer: TSDemuxer) {
    var demuxer = TSDemuxer(maximumMetadataSize: 64 * 1024)
    var events: [TSDemuxEvent] = []
    if let chunk {
        var start = 0
        while start < bytes.count {
            events += demuxer.feed(bytes[start..<min(bytes.count, start + chunk)])
            start += chunk
        }
    } else {
        events += demuxer.feed(bytes)
    }
    events += demuxer.finish()
    return (events, demuxer)
}

private func checkDemuxerChunking(_ bytes: [UInt8]) {
    let whole = demux(bytes, chunk: nil)
    let chunk = 1 + Int(bytes.first ?? 0) % 200
    let chunked = demux(bytes, chunk: chunk)
    guard whole.events == chunked.events, whole.demuxer.firstVideoPTS == chunked.demuxer.firstVideoPTS,
        whole.demuxer.firstAudioPTS == chunked.demuxer.firstAudioPTS,
        whole.demuxer.packetCount == chunked.demuxer.packetCount
    else {
        fatalError("demuxer events differ when fed in chunks of \(chunk)")
    }
}

private func checkID3RoundTrip(_ bytes: [UInt8]) {
    guard let decoded = try? ID3Tag.decode(bytes[...]) else { return }
    guard let encoded = try? decoded.tag.encoded() else {
        fatalError("a tag that reads does not write: \(decoded.tag)")
    }
    guard let again = try? ID3Tag(bytes: encoded), again.frames == decoded.tag.frames else {
        fatalError("a written tag reads differently: \(decoded.tag)")
    }
}

private func checkSectionRoundTrips(_ bytes: [UInt8]) {
    if let table = try? ProgramAssociationTable(section: bytes) {
        guard let section = try? table.encodedSection(), (try? ProgramAssociationTable(section: section)) == table
        else {
            fatalError("a PAT that reads does not write back: \(table)")
        }
    }
    if let table = try? ProgramMapTable(section: bytes) {
        guard let section = try? table.encodedSection(), (try? ProgramMapTable(section: section)) == table else {
            fatalError("a PMT that reads does not write back: \(table)")
        }
        _ = try? table.declaringID3Stream()
    }
}

private func checkInjection(_ bytes: [UInt8]) {
    guard let injector = try? TSMetadataInjector(segment: bytes) else { return }
    let tag = ID3Tag(frames: [.userText(description: "", value: "google_fuzz")])
    guard let output = try? injector.injecting([(pts: 12_345, tag: tag)]) else {
        fatalError("injecting a small tag failed")
    }
    // Only a clean single-program input promises a clean read back.
    guard let input = try? TSSegmentSummary(segment: bytes), input.issues.isEmpty,
        input.programAssociation.programMapPIDs.count == 1
    else { return }
    guard let summary = try? TSSegmentSummary(segment: output) else {
        fatalError("an injected clean segment does not read")
    }
    guard summary.timedMetadata.contains(where: { $0.pts == 12_345 && $0.frames == tag.frames }) else {
        fatalError("injected metadata does not read back: \(summary.issues)")
    }
}
