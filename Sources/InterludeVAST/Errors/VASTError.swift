/// A document that could not be read, with the VAST/VMAP code to report.
///
/// Thrown by ``VASTParser``. `code` is the number a player puts into
/// `[ERRORCODE]`: 100 for malformed XML (with ``line`` and ``column``), 101
/// for most schema violations in strict mode (a few carry their own code,
/// such as 403 for a linear ad without media), 102 for an unsupported version or a
/// root that is neither VAST nor VMAP, 1000–1002 for VMAP documents.
public struct VASTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The VAST or VMAP error code.
    public var code: VASTErrorCode
    /// What went wrong, for people.
    public var message: String
    /// 1-based line of the problem, when it has one.
    public var line: Int?
    /// 1-based column of the problem, when it has one.
    public var column: Int?
    /// Every violation found, when there were several (strict mode collects
    /// them all before failing); the first is the one described above.
    public var diagnostics: [VASTDiagnostic]

    public init(
        code: VASTErrorCode, message: String, line: Int? = nil, column: Int? = nil,
        diagnostics: [VASTDiagnostic] = []
    ) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.diagnostics = diagnostics
    }

    public var description: String {
        var text = "VAST error \(code.rawValue): \(message)"
        if let line {
            text += " (line \(line)"
            if let column { text += ", column \(column)" }
            text += ")"
        }
        return text
    }
}

/// A warning or error found while reading a document.
///
/// Lenient parsing keeps what is usable and reports the rest as warnings;
/// strict parsing turns schema findings into a ``VASTError`` with code 101.
public struct VASTDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Hashable, Sendable {
        /// The document was read, but this part was dropped or guessed.
        case warning
        /// The document (or, in strict mode, this part of it) is invalid.
        case error
    }

    public var severity: Severity
    /// The VAST/VMAP code this finding would be reported with.
    public var code: VASTErrorCode
    public var message: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?

    public init(severity: Severity, code: VASTErrorCode, message: String, line: Int? = nil, column: Int? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = "\(severity.rawValue) \(code.rawValue): \(message)"
        if let line { text += " (line \(line)\(column.map { ", column \($0)" } ?? ""))" }
        return text
    }
}
