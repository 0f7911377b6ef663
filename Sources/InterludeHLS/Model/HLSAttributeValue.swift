/// One attribute value of an attribute list (RFC 8216bis 4.2), kept as the
/// text it was written with plus the type it was read as, so that writing it
/// back gives the same bytes (`10` stays `10`, `10.000` stays `10.000`).
public struct HLSAttributeValue: Sendable, Hashable, CustomStringConvertible {
    /// The attribute types of RFC 8216bis 4.2.
    public enum Kind: Sendable, Hashable {
        /// `decimal-integer`, e.g. `BANDWIDTH=1280000`.
        case decimalInteger
        /// `hexadecimal-sequence`, e.g. `IV=0x1f…`.
        case hexadecimalSequence
        /// `decimal-floating-point` or `signed-decimal-floating-point`.
        case decimalFloatingPoint
        /// `quoted-string`; ``HLSAttributeValue/text`` excludes the quotes.
        case quotedString
        /// `enumerated-string`, e.g. `TYPE=AUDIO`, `YES`.
        case enumeratedString
        /// `decimal-resolution`, e.g. `1920x1080`.
        case decimalResolution
    }

    /// The type the value was read as.
    public var kind: Kind
    /// The value as written, without the surrounding quotes of a quoted string.
    public var text: String

    /// Creates a value from its kind and text as written.
    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// A `quoted-string` value.
    public static func quoted(_ text: String) -> Self { Self(kind: .quotedString, text: text) }
    /// An `enumerated-string` value such as `YES` or `AUDIO`.
    public static func enumerated(_ text: String) -> Self { Self(kind: .enumeratedString, text: text) }
    /// A `decimal-integer` value.
    public static func integer(_ value: UInt64) -> Self { Self(kind: .decimalInteger, text: String(value)) }
    /// A `decimal-floating-point` value written in Swift's shortest form.
    public static func decimal(_ value: Double) -> Self {
        Self(kind: .decimalFloatingPoint, text: HLSNumberFormat.decimal(value))
    }
    /// A `hexadecimal-sequence` value written as `0x` followed by upper-case digits.
    public static func hexadecimal(_ bytes: [UInt8]) -> Self {
        Self(kind: .hexadecimalSequence, text: "0x" + HLSHex.encode(bytes))
    }
    /// A `decimal-resolution` value.
    public static func resolution(_ resolution: HLSResolution) -> Self {
        Self(kind: .decimalResolution, text: "\(resolution.width)x\(resolution.height)")
    }

    /// The value as an unsigned integer, or nil when it is not one or overflows 64 bits.
    public var integerValue: UInt64? { UInt64(text) }
    /// The value as a number (integers and decimals), or nil.
    public var doubleValue: Double? { HLSNumberFormat.parseDecimal(text) }
    /// The bytes of a `hexadecimal-sequence`, or nil.
    public var hexadecimalBytes: [UInt8]? { HLSHex.decode(text) }
    /// The resolution of a `decimal-resolution`, or nil.
    public var resolutionValue: HLSResolution? { HLSResolution(text) }
    /// True for the enumerated string `YES`.
    public var isYes: Bool { text == "YES" }

    /// The value as it appears in an attribute list (quoted when a quoted string).
    public var description: String { kind == .quotedString ? "\"\(text)\"" : text }
}

/// A `decimal-resolution`: width and height in pixels.
public struct HLSResolution: Sendable, Hashable, Codable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WIDTHxHEIGHT`; nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: "x", maxSplits: 1)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }
}
