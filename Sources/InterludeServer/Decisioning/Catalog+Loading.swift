import Foundation

/// Why a catalog cannot be used; the message names the problem and where.
public struct CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the file and the JSON path.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Catalog {
    /// Reads and validates a catalog file.
    public static func load(from url: URL) throws(CatalogError) -> Catalog {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CatalogError("cannot read catalog \(url.path): \(error.localizedDescription)")
        }
        return try decode(data, source: url.path)
    }

    /// Decodes and validates catalog JSON.
    public static func decode(_ data: Data, source: String = "catalog") throws(CatalogError) -> Catalog {
        let catalog: Catalog
        do {
            catalog = try JSONDecoder().decode(Catalog.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw CatalogError("\(source): missing \"\(key.stringValue)\" at \(Self.path(context.codingPath))")
        } catch let DecodingError.typeMismatch(type, context) {
            throw CatalogError("\(source): expected \(type) at \(Self.path(context.codingPath))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw CatalogError("\(source): expected \(type), found null at \(Self.path(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw CatalogError("\(source): not valid JSON (\(detail ?? context.debugDescription))")
        } catch {
            throw CatalogError("\(source): \(error)")
        }
        try catalog.validate(source: source)
        return catalog
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the top level" : "$" + text
    }

    /// Checks what JSON decoding cannot: ranges, uniqueness, references.
    public func validate(source: String = "catalog") throws(CatalogError) {
        guard !creatives.isEmpty else { throw CatalogError("\(source): \"creatives\" is empty") }
        var seen = Set<String>()
        for (index, creative) in creatives.enumerated() {
            let at = "\(source): creatives[\(index)] (\(creative.id))"
            guard Self.isSafeID(creative.id) else {
                throw CatalogError("\(at): id must be 1–64 letters, digits, '-', '_' or '.'")
            }
            guard seen.insert(creative.id).inserted else { throw CatalogError("\(at): duplicate id") }
            guard creative.duration > 0, creative.duration <= 600 else {
                throw CatalogError("\(at): duration must be between 0 and 600 seconds")
            }
            if let skip = creative.skipOffset, skip < 0 || skip >= creative.duration {
                throw CatalogError("\(at): skipOffset must be at least 0 and less than the duration")
            }
            guard !creative.renditions.isEmpty else { throw CatalogError("\(at): renditions is empty") }
            for rendition in creative.renditions {
                guard (16...3840).contains(rendition.width), (16...2160).contains(rendition.height),
                    rendition.width % 2 == 0, rendition.height % 2 == 0, rendition.bitrate > 0
                else {
                    throw CatalogError(
                        "\(at): rendition \(rendition.width)x\(rendition.height) needs even sizes (16–3840) and a positive bitrate"
                    )
                }
                if let file = rendition.file, !Self.isSafeID(file) {
                    throw CatalogError("\(at): rendition file '\(file)' must be a plain file name in the media folder")
                }
            }
        }
        var rules: [(String, BreakRule)] = []
        if let preroll = adRules.preroll { rules.append(("adRules.preroll", preroll)) }
        for (index, rule) in adRules.midrolls.enumerated() { rules.append(("adRules.midrolls[\(index)]", rule)) }
        if let postroll = adRules.postroll { rules.append(("adRules.postroll", postroll)) }
        for (name, rule) in rules {
            guard (1...10).contains(rule.podSize) else { throw CatalogError("\(source): \(name).podSize must be 1–10") }
            if name.contains("midrolls") {
                guard let offset = rule.offset, offset > 0 else {
                    throw CatalogError("\(source): \(name).offset must be a positive number of seconds")
                }
            }
            for id in rule.ads ?? [] where creative(id: id) == nil {
                throw CatalogError("\(source): \(name).ads names unknown creative '\(id)'")
            }
        }
        try content.validate(source: source)
        try podServing.validate(in: self, source: source)
    }

    /// Ids and file names that are safe in URLs and paths.
    static func isSafeID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text != "." && text != ".."
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
    }
}
