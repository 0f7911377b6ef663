import Foundation

/// Reads VAST 2.0–4.3 and VMAP 1.0 documents from bytes into model values.
///
/// Lenient by default, as players are: what is usable is kept and the rest
/// is reported in ``VASTParseResult/diagnostics``. In ``Mode/strict`` the
/// schema's required elements and attribute formats are enforced and the
/// first violation throws a ``VASTError`` with its own code (101 for most
/// schema violations; e.g. 403 for an inline linear ad without a media file,
/// or a 1000-range code for VMAP).
///
/// ```swift
/// let result = try VASTParser().parse(data)
/// if case .vast(let vast) = result.document { print(vast.ads.count) }
/// ```
public struct VASTParser: Sendable {
    /// How strictly the schema is applied.
    public enum Mode: String, Hashable, Sendable {
        /// Keep what is usable, collect warnings (the default; what players do).
        case lenient
        /// Schema-required elements and attribute formats enforced: the first
        /// violation throws with its code (mostly 101).
        case strict
    }

    /// Parser settings.
    public struct Options: Hashable, Sendable {
        /// Lenient (default) or strict.
        public var mode: Mode
        /// Documents larger than this are refused with error 100. Default 4 MiB.
        public var maxDocumentSize: Int
        /// Elements nested deeper than this are refused with error 100. Default 64.
        public var maxDepth: Int

        public init(mode: Mode = .lenient, maxDocumentSize: Int = 4 * 1024 * 1024, maxDepth: Int = 64) {
            self.mode = mode
            self.maxDocumentSize = maxDocumentSize
            self.maxDepth = maxDepth
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses a VAST or VMAP document.
    public func parse(_ data: Data) throws(VASTError) -> VASTParseResult<AdDocument> {
        try parse(bytes: [UInt8](data))
    }

    /// Parses a VAST or VMAP document from raw bytes.
    public func parse(bytes: [UInt8]) throws(VASTError) -> VASTParseResult<AdDocument> {
        guard bytes.count <= options.maxDocumentSize else {
            throw VASTError(
                code: .xmlParsingError,
                message: "document is \(bytes.count) bytes, over the limit of \(options.maxDocumentSize) bytes")
        }
        var prepared: PreparedXML
        do {
            prepared = try XMLEncoding.prepare(bytes)
        } catch {
            throw VASTError(code: .xmlParsingError, message: error.message)
        }
        let tree: XMLTree
        do {
            tree = try XMLTreeParser(maxDepth: options.maxDepth).parse(prepared.bytes)
        } catch {
            let location = XMLTree.location(ofOffset: error.offset, in: prepared.bytes)
            throw VASTError(
                code: .xmlParsingError, message: "malformed XML: \(error.message)",
                line: location.line, column: location.column)
        }
        var reader = DocumentReader(tree: tree, mode: options.mode)
        reader.diagnostics.append(contentsOf: prepared.warnings)
        let document = try reader.readDocument()
        return VASTParseResult(document: document, diagnostics: reader.diagnostics)
    }

    /// Parses a document that must be VAST; a VMAP document is refused with 102.
    public func parseVAST(_ data: Data) throws(VASTError) -> VASTParseResult<VASTDocument> {
        let result = try parse(data)
        guard case .vast(let vast) = result.document else {
            throw VASTError(code: .unsupportedVersion, message: "expected a VAST document, found VMAP")
        }
        return VASTParseResult(document: vast, diagnostics: result.diagnostics)
    }

    /// Parses a document that must be VMAP; a VAST document is refused with 1002.
    public func parseVMAP(_ data: Data) throws(VASTError) -> VASTParseResult<VMAPDocument> {
        let result = try parse(data)
        guard case .vmap(let vmap) = result.document else {
            throw VASTError(code: .vmapParsingError, message: "expected a VMAP document, found VAST")
        }
        return VASTParseResult(document: vmap, diagnostics: result.diagnostics)
    }
}

/// A parsed document and what the parser noticed while reading it.
public struct VASTParseResult<Document: Hashable & Sendable>: Hashable, Sendable {
    public var document: Document
    /// Warnings (lenient mode) about parts dropped or guessed.
    public var diagnostics: [VASTDiagnostic]

    public init(document: Document, diagnostics: [VASTDiagnostic] = []) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
