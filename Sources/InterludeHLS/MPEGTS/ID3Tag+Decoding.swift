extension ID3Tag {
    /// Reads a tag from the start of `bytes`: ID3v2.3 or ID3v2.4, the
    /// unsynchronisation scheme undone (the whole tag in v2.3, per frame in
    /// v2.4), the extended header skipped, padding ignored. A frame that is
    /// compressed, encrypted or malformed is skipped and reported; a frame
    /// whose size runs past the tag (or a bad identifier or size) ends the
    /// frames, reported too.
    /// - Throws: `invalidID3` without an `ID3` header, `unsupportedID3Version`
    ///   for a major version other than 3 or 4, `invalidSynchsafeInteger` for
    ///   a tag size byte with its high bit set, `truncatedID3` when the tag
    ///   (or its extended header) is larger than `bytes`.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(MPEGTSError) -> ID3DecodedTag {
        let start = bytes.startIndex
        guard bytes.count >= 10, bytes[start] == 0x49, bytes[start + 1] == 0x44, bytes[start + 2] == 0x33 else {
            throw MPEGTSError(.invalidID3, "no ID3v2 header (\"ID3\" and ten bytes)")
        }
        let major = bytes[start + 3]
        let flags = bytes[start + 5]
        guard major == 3 || major == 4 else {
            throw MPEGTSError(.unsupportedID3Version, "ID3v2.\(major) is not read (2.3 and 2.4 are)")
        }
        guard let size = ID3Synchsafe.decode(bytes[(start + 6)..<(start + 10)]) else {
            throw MPEGTSError(.invalidSynchsafeInteger, "ID3 tag size has a byte with its high bit set", byteOffset: 6)
        }
        guard size <= bytes.count - 10 else {
            throw MPEGTSError(.truncatedID3, "ID3 tag size \(size) runs past the \(bytes.count - 10) bytes that follow")
        }
        let hasFooter = major == 4 && flags & 0x10 != 0
        let byteCount = min(10 + size + (hasFooter ? 10 : 0), bytes.count)
        let rawBody = bytes[(start + 10)..<(start + 10 + size)]
        let unsynchronised = flags & 0x80 != 0
        // v2.3 unsynchronises the whole tag after its header; v2.4 each frame.
        let body = major == 3 && unsynchronised ? ID3Synchsafe.removeUnsynchronisation(rawBody)[...] : rawBody
        var reader = ID3FrameReader(body: body, major: major, tagUnsynchronised: unsynchronised)
        if flags & 0x40 != 0 { try reader.skipExtendedHeader() }
        reader.readFrames()
        var tag = ID3Tag(frames: reader.frames)
        tag.majorVersion = major
        return ID3DecodedTag(tag: tag, byteCount: byteCount, issues: reader.issues)
    }

    /// Reads every tag that follows another in `bytes` (the payload of one
    /// timed-metadata PES may hold several), stopping at the first bytes
    /// that are not a tag; nothing read from a payload that does not start
    /// with one is an error. A later tag that cannot be read (cut short, an
    /// ID3v2.2 one) ends the reading as an issue: the frames of the tags
    /// before it are kept.
    static func decodeAll(_ bytes: ArraySlice<UInt8>) throws(MPEGTSError) -> (frames: [ID3Frame], issues: [MPEGTSError])
    {
        var frames: [ID3Frame] = []
        var issues: [MPEGTSError] = []
        var cursor = bytes.startIndex
        repeat {
            let decoded: ID3DecodedTag
            do {
                decoded = try decode(bytes[cursor...])
            } catch {
                guard cursor > bytes.startIndex else { throw error }
                issues.append(error.offset(by: cursor - bytes.startIndex))
                break
            }
            frames += decoded.tag.frames
            issues += decoded.issues.map { $0.offset(by: cursor - bytes.startIndex) }
            cursor += decoded.byteCount
        } while bytes.endIndex - cursor >= 10 && bytes[cursor] == 0x49 && bytes[cursor + 1] == 0x44
            && bytes[cursor + 2] == 0x33
        return (frames, issues)
    }
}

/// Walks the frames of a tag body.
private struct ID3FrameReader {
    let body: ArraySlice<UInt8>
    let major: UInt8
    let tagUnsynchronised: Bool
    var cursor: Int
    var frames: [ID3Frame] = []
    var issues: [MPEGTSError] = []

    init(body: ArraySlice<UInt8>, major: UInt8, tagUnsynchronised: Bool) {
        self.body = body
        self.major = major
        self.tagUnsynchronised = tagUnsynchronised
        self.cursor = body.startIndex
    }

    /// The offset from the tag start of a body index, for issues (after
    /// v2.3 unsynchronisation is undone, an offset in the restored bytes).
    private func offset(_ index: Int) -> Int { 10 + index - body.startIndex }

    /// v2.3: a plain size not counting its own four bytes (6 or 10);
    /// v2.4: a synchsafe size counting the whole extended header.
    mutating func skipExtendedHeader() throws(MPEGTSError) {
        guard body.endIndex - cursor >= 4 else {
            throw MPEGTSError(.truncatedID3, "ID3 extended header is cut short", byteOffset: offset(cursor))
        }
        let sizeBytes = body[cursor..<(cursor + 4)]
        let length: Int
        if major == 3 {
            length = 4 + ID3Synchsafe.decodePlain(sizeBytes)
        } else {
            guard let size = ID3Synchsafe.decode(sizeBytes) else {
                throw MPEGTSError(
                    .invalidSynchsafeInteger, "ID3 extended header size has a byte with its high bit set",
                    byteOffset: offset(cursor))
            }
            length = size
        }
        guard length >= 4, length <= body.endIndex - cursor else {
            throw MPEGTSError(
                .truncatedID3, "ID3 extended header of \(length) bytes does not fit the tag", byteOffset: offset(cursor)
            )
        }
        cursor += length
    }

    mutating func readFrames() {
        while body.endIndex - cursor >= 10 {
            let headerStart = cursor
            // A zero byte where an identifier would start is padding.
            if body[cursor] == 0 { return }
            let idBytes = body[cursor..<(cursor + 4)]
            guard ID3Frame.isValidIdentifier(idBytes) else {
                issues.append(
                    MPEGTSError(
                        .invalidID3Frame, "ID3 frame identifier is not four of A–Z, 0–9; frames end here",
                        byteOffset: offset(headerStart)))
                return
            }
            let id = String(decoding: idBytes, as: UTF8.self)
            let sizeBytes = body[(cursor + 4)..<(cursor + 8)]
            let size: Int
            if major == 3 {
                size = ID3Synchsafe.decodePlain(sizeBytes)
            } else {
                guard let synchsafe = ID3Synchsafe.decode(sizeBytes) else {
                    issues.append(
                        MPEGTSError(
                            .invalidSynchsafeInteger, "ID3 frame \(id) size has a byte with its high bit set",
                            byteOffset: offset(headerStart + 4)))
                    return
                }
                size = synchsafe
            }
            let formatFlags = body[cursor + 9]
            let dataStart = cursor + 10
            guard size <= body.endIndex - dataStart else {
                issues.append(
                    MPEGTSError(
                        .truncatedID3, "ID3 frame \(id) of \(size) bytes runs past the end of the tag",
                        byteOffset: offset(headerStart)))
                return
            }
            cursor = dataStart + size
            do throws(MPEGTSError) {
                let data = try frameData(body[dataStart..<cursor], id: id, flags: formatFlags)
                frames.append(try ID3Frame.decode(id: id, data: data[...]))
            } catch {
                issues.append(error.offset(by: offset(headerStart)))
            }
        }
    }

    /// The frame's data without the bytes its flags add and without
    /// unsynchronisation; compressed and encrypted frames are not read.
    private func frameData(_ raw: ArraySlice<UInt8>, id: String, flags: UInt8) throws(MPEGTSError) -> [UInt8] {
        var skip = 0
        let compressed: Bool
        let encrypted: Bool
        var unsynchronised = false
        if major == 3 {
            // %ijk00000: compression, encryption, grouping identity.
            compressed = flags & 0x80 != 0
            encrypted = flags & 0x40 != 0
            if flags & 0x20 != 0 { skip += 1 }
        } else {
            // %0h00kmnp: grouping, compression, encryption, unsynchronisation, data length indicator.
            compressed = flags & 0x08 != 0
            encrypted = flags & 0x04 != 0
            unsynchronised = flags & 0x02 != 0 || tagUnsynchronised
            if flags & 0x40 != 0 { skip += 1 }
            if flags & 0x01 != 0 { skip += 4 }
        }
        guard !compressed, !encrypted else {
            throw MPEGTSError(.invalidID3Frame, "ID3 frame \(id) is compressed or encrypted and was skipped")
        }
        guard skip <= raw.count else {
            throw MPEGTSError(.invalidID3Frame, "ID3 frame \(id) is shorter than its flags' extra bytes")
        }
        let data = raw.dropFirst(skip)
        return unsynchronised ? ID3Synchsafe.removeUnsynchronisation(data) : Array(data)
    }
}
