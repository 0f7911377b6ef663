/// Writes playlists as text: tags in model order, one per line, LF line
/// ends. A playlist read from canonical text writes back the same bytes.
public enum HLSWriter {
    /// The playlist as UTF-8 bytes.
    public static func bytes(_ playlist: HLSPlaylist) -> [UInt8] {
        switch playlist {
        case .media(let media): return bytes(media)
        case .multivariant(let multivariant): return bytes(multivariant)
        }
    }

    /// The media playlist as UTF-8 bytes.
    public static func bytes(_ playlist: MediaPlaylist) -> [UInt8] {
        // Sizing first (String.utf8.count is O(1) for native strings) lets
        // the text go straight into one exactly sized array.
        var size = 0
        for tag in playlist.tags { size += HLSOutput.size(of: tag) }
        for segment in playlist.segments {
            for tag in segment.tags { size += HLSOutput.size(of: tag) }
            size += 11 + segment.duration.text.utf8.count + segment.title.utf8.count + segment.uri.utf8.count
            for tag in segment.tagsAfterInfo { size += HLSOutput.size(of: tag) }
        }
        for tag in playlist.trailingTags { size += HLSOutput.size(of: tag) }
        guard size > 0 else { return [] }
        var overflowed = false
        let written = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var output = HLSOutput(external: buffer.baseAddress!, capacity: size)
            write(playlist, into: &output)
            overflowed = output.overflowed
            initialized = overflowed ? 0 : output.count
        }
        if !overflowed { return written }
        // Only if the sizing above ever undercounts: write into a growing buffer.
        var output = HLSOutput(capacity: size * 2)
        write(playlist, into: &output)
        return output.bytes
    }

    private static func write(_ playlist: MediaPlaylist, into output: inout HLSOutput) {
        for tag in playlist.tags { output.write(tag) }
        for segment in playlist.segments {
            for tag in segment.tags { output.write(tag) }
            output.append("#EXTINF:")
            output.append(segment.duration.text)
            output.append(UInt8(ascii: ","))
            output.append(segment.title)
            output.newline()
            for tag in segment.tagsAfterInfo { output.write(tag) }
            output.append(segment.uri)
            output.newline()
        }
        for tag in playlist.trailingTags { output.write(tag) }
    }

    /// The multivariant playlist as UTF-8 bytes.
    public static func bytes(_ playlist: MultivariantPlaylist) -> [UInt8] {
        var output = HLSOutput(capacity: 64 + playlist.entries.count * 96)
        for entry in playlist.entries {
            switch entry {
            case .tag(let tag):
                output.write(tag)
            case .variant(let variant):
                output.write(HLSTag(HLSTagName.streamInf, attributes: variant.attributes))
                for tag in variant.tagsBeforeURI { output.write(tag) }
                output.append(variant.uri)
                output.newline()
            }
        }
        return output.bytes
    }

    /// One tag as its line, without the line end.
    static func line(_ tag: HLSTag) -> [UInt8] {
        var output = HLSOutput(capacity: HLSOutput.size(of: tag))
        output.write(tag)
        var bytes = output.bytes
        bytes.removeLast()
        return bytes
    }

    /// An attribute list as written after a tag's colon.
    public static func attributeListText(_ list: HLSAttributeList) -> String {
        var output = HLSOutput()
        output.write(list)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

extension MediaPlaylist {
    /// The playlist as text.
    public var text: String { String(decoding: HLSWriter.bytes(self), as: UTF8.self) }
}

extension MultivariantPlaylist {
    /// The playlist as text.
    public var text: String { String(decoding: HLSWriter.bytes(self), as: UTF8.self) }
}

extension HLSPlaylist {
    /// The playlist as text.
    public var text: String { String(decoding: HLSWriter.bytes(self), as: UTF8.self) }
}

/// A growing byte buffer written through raw pointers: `Array.append(contentsOf:)`
/// was the largest cost of writing a long VOD playlist.
struct HLSOutput: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private let ownsStorage: Bool
    /// True when a fixed external buffer was too small; the text is then incomplete.
    private(set) var overflowed = false

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
        ownsStorage = true
    }

    /// Writes into `storage`, which holds `capacity` bytes and is not grown.
    init(external storage: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.storage = storage
        self.capacity = capacity
        ownsStorage = false
    }

    deinit {
        if ownsStorage { storage.deallocate() }
    }

    /// The bytes written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// The bytes ``write(_:)-(HLSTag)`` produces for `tag`.
    static func size(of tag: HLSTag) -> Int {
        var size = 2 + tag.name.utf8.count
        switch tag.value {
        case .none: break
        case .text(let text): size += 1 + text.utf8.count
        case .attributes(let list):
            size += 1
            for attribute in list.attributes { size += 4 + attribute.name.utf8.count + attribute.value.text.utf8.count }
        }
        return size
    }

    /// Makes room for `additional` bytes; false when a fixed buffer is full.
    @inline(__always)
    private mutating func reserve(additional: Int) -> Bool {
        if count + additional <= capacity { return true }
        guard ownsStorage else {
            overflowed = true
            return false
        }
        grow(additional: additional)
        return true
    }

    private mutating func grow(additional: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + additional { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    mutating func append(_ byte: UInt8) {
        guard reserve(additional: 1) else { return }
        storage[count] = byte
        count += 1
    }

    mutating func append(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard reserve(additional: utf8.count) else { return }
            if let base = utf8.baseAddress { (storage + count).update(from: base, count: utf8.count) }
            count += utf8.count
        }
        if copied == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    mutating func newline() { append(0x0A) }

    mutating func write(_ tag: HLSTag) {
        append(UInt8(ascii: "#"))
        append(tag.name)
        switch tag.value {
        case .none:
            break
        case .text(let text):
            append(UInt8(ascii: ":"))
            append(text)
        case .attributes(let list):
            append(UInt8(ascii: ":"))
            write(list)
        }
        newline()
    }

    mutating func write(_ list: HLSAttributeList) {
        var first = true
        for attribute in list.attributes {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            append(attribute.name)
            append(UInt8(ascii: "="))
            if attribute.value.kind == .quotedString {
                append(UInt8(ascii: "\""))
                append(attribute.value.text)
                append(UInt8(ascii: "\""))
            } else {
                append(attribute.value.text)
            }
        }
    }
}
