extension TSDemuxer {
    /// Handles the packet at `start` of `buffer` (its first byte is the sync byte).
    mutating func handlePacket(
        _ buffer: UnsafeBufferPointer<UInt8>, at start: Int, inputOffset: Int, events: inout [TSDemuxEvent]
    ) {
        packetCount += 1
        let pid = Int(UInt16(buffer[start + 1] & 0x1F) << 8 | UInt16(buffer[start + 2]))
        let role = roles[pid]
        // The fast path: most packets are media on PIDs whose first PTS is known.
        switch role {
        case .unknown, .otherStream: return
        case .video where firstVideoPTS != nil: return
        case .audio where firstAudioPTS != nil: return
        default: break
        }
        let header: TSPacketHeader
        do {
            header = try TSPacketHeader(buffer, at: start)
        } catch {
            events.append(.issue(error.offset(by: inputOffset - start)))
            return
        }
        if header.transportError {
            events.append(
                .issue(
                    MPEGTSError(
                        .transportError, "packet on PID 0x\(String(pid, radix: 16)) has transport_error_indicator set",
                        byteOffset: inputOffset)))
            return
        }
        guard header.hasPayload, header.payloadOffset < TSPacket.size else { return }
        let payload = UnsafeBufferPointer(rebasing: buffer[(start + header.payloadOffset)..<(start + TSPacket.size)])
        switch role {
        case .programAssociation, .programMap:
            switch checkContinuity(header, inputOffset: inputOffset, events: &events) {
            case .continuous: break
            case .duplicate: return
            case .lost:
                // What was collected is incomplete; a unit starting here is still good.
                sectionAssemblers[header.pid]?.reset()
                guard header.payloadUnitStart else { return }
            }
            var issues: [MPEGTSError] = []
            let sections =
                sectionAssemblers[header.pid, default: PSISectionAssembler()].append(
                    payload: payload, unitStart: header.payloadUnitStart, issues: &issues, offset: inputOffset)
            events += issues.map(TSDemuxEvent.issue)
            for section in sections {
                handleSection(section, pid: header.pid, role: role, inputOffset: inputOffset, events: &events)
            }
        case .id3Metadata:
            switch checkContinuity(header, inputOffset: inputOffset, events: &events) {
            case .continuous: break
            case .duplicate: return
            case .lost: metadataAssemblers[header.pid]?.abandon(issues: &events)
            }
            // One budget for every metadata PID, so many PIDs cannot multiply it.
            let bufferedElsewhere = bufferedMetadataBytes - (metadataAssemblers[header.pid]?.bufferedByteCount ?? 0)
            let completed =
                metadataAssemblers[header.pid, default: MetadataPESAssembler()].append(
                    payload, unitStart: header.payloadUnitStart, inputOffset: inputOffset,
                    maximumSize: maximumMetadataSize - bufferedElsewhere, issues: &events)
            bufferedMetadataBytes = bufferedElsewhere + (metadataAssemblers[header.pid]?.bufferedByteCount ?? 0)
            for pes in completed { deliver(pes, pid: header.pid, events: &events) }
        case .video, .audio:
            readFirstTimestamp(payload, header: header, role: role, inputOffset: inputOffset, events: &events)
        case .unknown, .otherStream:
            return
        }
    }

    /// Whether the packet follows the previous one of its PID: a skipped
    /// counter means packets were lost (reported); a repeated one is a
    /// duplicate packet, which section 2.4.3.3 allows once, not read twice.
    private mutating func checkContinuity(
        _ header: TSPacketHeader, inputOffset: Int, events: inout [TSDemuxEvent]
    ) -> Continuity {
        let pid = Int(header.pid)
        let last = continuityCounters[pid]
        continuityCounters[pid] = header.continuityCounter
        guard last != 0xFF, !header.discontinuity else { return .continuous }
        if header.continuityCounter == (last + 1) & 0x0F { return .continuous }
        if header.continuityCounter == last { return .duplicate }
        events.append(
            .issue(
                MPEGTSError(
                    .continuityError,
                    "continuity_counter on PID 0x\(String(header.pid, radix: 16)) went from \(last) to \(header.continuityCounter)",
                    byteOffset: inputOffset)))
        return .lost
    }

    private mutating func handleSection(
        _ section: [UInt8], pid: UInt16, role: PIDRole, inputOffset: Int, events: inout [TSDemuxEvent]
    ) {
        // Packagers repeat the tables every 100 ms or so: skip what was read already.
        guard lastSections[pid] != section else { return }
        do throws(MPEGTSError) {
            if role == .programAssociation {
                guard section.first == ProgramAssociationTable.tableID else { return }
                apply(try ProgramAssociationTable(section: section))
            } else {
                guard section.first == ProgramMapTable.tableID else { return }
                let table = try ProgramMapTable(section: section)
                apply(table, pid: pid)
                events.append(.programMap(table, pid: pid))
            }
            lastSections[pid] = section
        } catch {
            events.append(.issue(error.at(inputOffset)))
        }
    }

    private mutating func apply(_ table: ProgramAssociationTable) {
        for old in programAssociation?.programMapPIDs ?? [] where roles[Int(old)] == .programMap {
            roles[Int(old)] = .unknown
        }
        programAssociation = table
        for pid in table.programMapPIDs where pid != ProgramAssociationTable.pid && pid <= TSPacket.maximumPID {
            roles[Int(pid)] = .programMap
        }
    }

    private mutating func apply(_ table: ProgramMapTable, pid: UInt16) {
        for stream in programMapsByPID[pid]?.streams ?? [] where !isTablePID(stream.pid) {
            roles[Int(stream.pid)] = .unknown
        }
        programMapsByPID[pid] = table
        for stream in table.streams where !isTablePID(stream.pid) && stream.pid <= TSPacket.maximumPID {
            let role: PIDRole =
                stream.isReadAsID3Metadata
                ? .id3Metadata : stream.isVideo ? .video : stream.isAudio ? .audio : .otherStream
            roles[Int(stream.pid)] = role
        }
    }

    private func isTablePID(_ pid: UInt16) -> Bool {
        let role = roles[Int(pid & 0x1FFF)]
        return role == .programAssociation || role == .programMap
    }

    /// Reads the PTS of the first PES on a video or audio PID, collecting the
    /// header across packets when the first carries only part of it.
    private mutating func readFirstTimestamp(
        _ payload: UnsafeBufferPointer<UInt8>, header: TSPacketHeader, role: PIDRole, inputOffset: Int,
        events: inout [TSDemuxEvent]
    ) {
        var bytes: [UInt8]
        if header.payloadUnitStart {
            bytes = Array(payload)
        } else if let partial = headerBuffers[header.pid] {
            bytes = partial + payload
        } else {
            return
        }
        guard let needed = PESHeader.requiredLength(bytes[...]), bytes.count >= needed else {
            // 9 + 255 bytes at most: a header always fits.
            headerBuffers[header.pid] = bytes.count < 9 + 255 ? bytes : nil
            return
        }
        headerBuffers[header.pid] = nil
        do {
            guard let pts = try PESHeader(bytes[...]).pts else { return }
            if role == .video { firstVideoPTS = pts } else { firstAudioPTS = pts }
        } catch {
            events.append(.issue(error.at(inputOffset)))
        }
    }

    /// Reads a completed timed-metadata PES and reports its tags.
    mutating func deliver(_ pes: MetadataPESAssembler.Completed, pid: UInt16, events: inout [TSDemuxEvent]) {
        do throws(MPEGTSError) {
            let packet = try PESPacket(bytes: pes.bytes)
            guard let pts = packet.pts else {
                throw MPEGTSError(.invalidPES, "timed-metadata PES on PID 0x\(String(pid, radix: 16)) has no PTS")
            }
            let decoded = try ID3Tag.decodeAll(packet.payload[...])
            // ID3 offsets are within the tag; the PES's packet is where to look in the stream.
            events += decoded.issues.map { .issue($0.at(pes.inputOffset)) }
            events.append(
                .timedMetadata(
                    TimedID3Metadata(pts: pts, frames: decoded.frames, pid: pid, byteOffset: pes.inputOffset)))
        } catch {
            events.append(.issue(error.at(pes.inputOffset)))
        }
    }
}

enum Continuity {
    case continuous
    case duplicate
    case lost
}
