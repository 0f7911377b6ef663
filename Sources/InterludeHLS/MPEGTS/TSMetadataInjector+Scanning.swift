/// Where a segment's first PAT/PMT pair is, found in one pass over its packets.
struct TSProgramMapLocator {
    /// The PID of the first program's map.
    var programMapPID: UInt16
    /// The first program's map, as first read after a PAT.
    var programMap: ProgramMapTable
    /// The offset just past the packet that completes that map.
    var insertionOffset: Int
    /// PID 0 and every program map PID the PAT names.
    var tablePIDs: Set<UInt16>
    /// The PTS of the first video PES after the map (read from its first packet).
    var firstVideoPTS: UInt64?
    /// The continuity counter of the first packet with payload on the metadata
    /// PID after the map (the PMT's ID3 stream, or the PID about to be declared).
    var followingContinuityCounter: UInt8?
    /// The PID the metadata packets go on: the PMT's timed-ID3 stream, its
    /// undeclared 0x15 stream when one can take them, or the one requested.
    var metadataPID: UInt16 = 0
    /// True when `metadataPID` is the PMT's undeclared 0x15 stream.
    var adoptsUndeclaredStream = false

    static func locate(in buffer: UnsafeBufferPointer<UInt8>, metadataPID requested: UInt16) throws(MPEGTSError)
        -> TSProgramMapLocator
    {
        guard var located = findProgramMap(in: buffer) else {
            throw MPEGTSError(
                .missingProgramMap, "no PAT followed by a PMT that reads (CRC and lengths) in the segment")
        }
        var metadataPID = located.programMap.id3Stream?.pid ?? requested
        if located.programMap.id3Stream == nil, let undeclared = located.programMap.undeclaredID3Stream?.pid,
            canInsert(on: undeclared, in: buffer, at: located.insertionOffset)
        {
            metadataPID = undeclared
            located.adoptsUndeclaredStream = true
        }
        located.metadataPID = metadataPID
        // After the map only two things are wanted, and most packets are neither: look at PIDs only.
        let videoPIDs = located.programMap.streams.filter(\.isVideo).map(\.pid)
        var wantsTimestamp = !videoPIDs.isEmpty
        var wantsCounter = true
        TSPacketScanner.forEachPacket(in: buffer, from: located.insertionOffset) { start in
            let pid = UInt16(buffer[start + 1] & 0x1F) << 8 | UInt16(buffer[start + 2])
            let isMetadata = wantsCounter && pid == metadataPID
            let isVideo = wantsTimestamp && videoPIDs.contains(pid)
            guard isMetadata || isVideo else { return true }
            guard let header = try? TSPacketHeader(buffer, at: start), !header.transportError, header.hasPayload,
                header.payloadOffset < TSPacket.size
            else { return true }
            if isMetadata {
                located.followingContinuityCounter = header.continuityCounter
                wantsCounter = false
            }
            if isVideo && header.payloadUnitStart {
                let payload = buffer[(start + header.payloadOffset)..<(start + TSPacket.size)]
                located.firstVideoPTS = try? PESHeader(Array(payload)[...]).pts
                wantsTimestamp = false
            }
            return wantsCounter || wantsTimestamp
        }
        return located
    }

    /// True when packets inserted at `offset` on `pid` keep the stream on
    /// that PID whole: none of its packets comes before `offset`, and the
    /// first after it starts a PES (inserting before a continuation would
    /// split the origin's PES, and counters before `offset` would jump).
    private static func canInsert(on pid: UInt16, in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var isWhole = true
        TSPacketScanner.forEachPacket(in: buffer) { start in
            let packetPID = UInt16(buffer[start + 1] & 0x1F) << 8 | UInt16(buffer[start + 2])
            guard packetPID == pid, let header = try? TSPacketHeader(buffer, at: start), header.hasPayload else {
                return true
            }
            isWhole = start >= offset && header.payloadUnitStart
            return false
        }
        return isWhole
    }

    /// The first program's map that completes after a PAT naming it, or nil.
    private static func findProgramMap(in buffer: UnsafeBufferPointer<UInt8>) -> TSProgramMapLocator? {
        var patAssembler = PSISectionAssembler()
        var pmtAssembler = PSISectionAssembler()
        var ignoredIssues: [MPEGTSError] = []
        var program: ProgramAssociationTable.Program?
        var tablePIDs: Set<UInt16> = [ProgramAssociationTable.pid]
        var found: TSProgramMapLocator?
        TSPacketScanner.forEachPacket(in: buffer) { start in
            guard let header = try? TSPacketHeader(buffer, at: start), !header.transportError, header.hasPayload,
                header.payloadOffset < TSPacket.size
            else { return true }
            let payload = UnsafeBufferPointer(
                rebasing: buffer[(start + header.payloadOffset)..<(start + TSPacket.size)])
            defer { ignoredIssues.removeAll() }
            if header.pid == ProgramAssociationTable.pid {
                let sections = patAssembler.append(
                    payload: payload, unitStart: header.payloadUnitStart, issues: &ignoredIssues, offset: start)
                for section in sections {
                    guard let table = try? ProgramAssociationTable(section: section),
                        let first = table.programs.first(where: { $0.number != 0 })
                    else { continue }
                    if first != program { pmtAssembler.reset() }
                    program = first
                    tablePIDs.formUnion(table.programMapPIDs)
                }
            } else if let program, header.pid == program.pid {
                let sections = pmtAssembler.append(
                    payload: payload, unitStart: header.payloadUnitStart, issues: &ignoredIssues, offset: start)
                for section in sections where section.first == ProgramMapTable.tableID {
                    guard let table = try? ProgramMapTable(section: section), table.programNumber == program.number
                    else { continue }
                    found = TSProgramMapLocator(
                        programMapPID: program.pid, programMap: table, insertionOffset: start + TSPacket.size,
                        tablePIDs: tablePIDs)
                    return false
                }
            }
            return true
        }
        return found
    }
}

/// Rewrites every PMT section on the program map PID to declare the
/// timed-ID3 stream, re-packetising them where the originals were (each in
/// place of the packet that completed it) with continuous counters; every
/// other packet and byte is copied as it is.
enum TSProgramMapRewriter {
    struct Rewritten {
        var segment: [UInt8]
        var insertionOffset: Int
    }

    static func rewrite(
        _ buffer: UnsafeBufferPointer<UInt8>, located: TSProgramMapLocator, metadataPID: UInt16
    ) throws(MPEGTSError) -> Rewritten {
        var output: [UInt8] = []
        output.reserveCapacity(buffer.count + 4 * TSPacket.size)
        var copyStart = 0
        var assembler = PSISectionAssembler()
        var ignoredIssues: [MPEGTSError] = []
        var continuityCounter: UInt8?
        var rewrittenSections: [[UInt8]: [UInt8]] = [:]
        var insertionOffset: Int?
        var failure: MPEGTSError?
        let pmtPID = located.programMapPID
        TSPacketScanner.forEachPacket(in: buffer) { start in
            guard UInt16(buffer[start + 1] & 0x1F) << 8 | UInt16(buffer[start + 2]) == pmtPID else { return true }
            output.append(contentsOf: buffer[copyStart..<start])
            copyStart = start + TSPacket.size
            guard let header = try? TSPacketHeader(buffer, at: start), header.hasPayload,
                header.payloadOffset < TSPacket.size
            else {
                // No payload (or a damaged header): nothing to rewrite, and no counter step.
                output.append(contentsOf: buffer[start..<(start + TSPacket.size)])
                return true
            }
            var counter = continuityCounter ?? header.continuityCounter
            let payload = UnsafeBufferPointer(
                rebasing: buffer[(start + header.payloadOffset)..<(start + TSPacket.size)])
            let sections = assembler.append(
                payload: payload, unitStart: header.payloadUnitStart, issues: &ignoredIssues, offset: start)
            ignoredIssues.removeAll()
            for section in sections {
                let rewritten: [UInt8]
                if let cached = rewrittenSections[section] {
                    rewritten = cached
                } else {
                    do throws(MPEGTSError) {
                        rewritten = try declare(
                            in: section, program: located.programMap.programNumber, metadataPID: metadataPID)
                    } catch {
                        failure = error
                        return false
                    }
                    rewrittenSections[section] = rewritten
                }
                output.append(
                    contentsOf: PSISection.packets(carrying: rewritten, pid: pmtPID, continuityCounter: &counter))
            }
            continuityCounter = counter
            if start + TSPacket.size == located.insertionOffset { insertionOffset = output.count }
            return true
        }
        if let failure { throw failure }
        output.append(contentsOf: buffer[copyStart...])
        guard let insertionOffset else {
            throw MPEGTSError(.missingProgramMap, "the first PMT was not found again while rewriting")
        }
        return Rewritten(segment: output, insertionOffset: insertionOffset)
    }

    /// The program's PMT section declaring the stream; other sections (other
    /// programs' maps, other tables, sections that do not read) unchanged.
    private static func declare(in section: [UInt8], program: UInt16, metadataPID: UInt16) throws(MPEGTSError)
        -> [UInt8]
    {
        guard section.first == ProgramMapTable.tableID, let table = try? ProgramMapTable(section: section),
            table.programNumber == program, table.id3Stream == nil
        else { return section }
        return try table.declaringID3Stream(pid: metadataPID).encodedSection()
    }
}
