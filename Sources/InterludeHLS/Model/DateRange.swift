import Foundation

/// A typed view of an `EXT-X-DATERANGE` tag (RFC 8216bis 4.4.5.1), including
/// the SCTE-35 mapping and the interstitial attributes (appendix D).
public struct DateRange: Sendable, Hashable {
    /// The attribute list, which stays the source of truth.
    public var attributes: HLSAttributeList
    /// The line of the tag; 0 when made in code.
    public var line: Int

    /// Reads the view from a DATERANGE tag.
    public init(tag: HLSTag) {
        attributes = tag.attributes
        line = tag.line
    }

    /// Creates a date range with ID and START-DATE and the given extra attributes.
    public init(id: String, startDate: Date, attributes extra: [HLSAttributeList.Attribute] = []) {
        attributes = HLSAttributeList(["ID": .quoted(id), "START-DATE": .quoted(HLSDateFormat.format(startDate))])
        attributes.attributes += extra
        line = 0
    }

    /// The tag this view writes.
    public var tag: HLSTag { HLSTag(HLSTagName.dateRange, attributes: attributes, line: line) }

    /// `ID`, required.
    public var id: String? { attributes.string("ID") }
    /// `CLASS`, e.g. `com.apple.hls.interstitial`.
    public var dateRangeClass: String? { attributes.string("CLASS") }
    /// `START-DATE`, required.
    public var startDate: Date? { attributes.string("START-DATE").flatMap(HLSDateFormat.parse) }
    /// `END-DATE`.
    public var endDate: Date? { attributes.string("END-DATE").flatMap(HLSDateFormat.parse) }
    /// `DURATION` in seconds.
    public var duration: Double? { attributes.double("DURATION") }
    /// `PLANNED-DURATION` in seconds.
    public var plannedDuration: Double? { attributes.double("PLANNED-DURATION") }
    /// `END-ON-NEXT=YES`.
    public var endsOnNext: Bool { attributes["END-ON-NEXT"]?.isYes ?? false }
    /// `SCTE35-OUT` bytes.
    public var scte35Out: [UInt8]? { attributes["SCTE35-OUT"]?.hexadecimalBytes }
    /// `SCTE35-IN` bytes.
    public var scte35In: [UInt8]? { attributes["SCTE35-IN"]?.hexadecimalBytes }
    /// `SCTE35-CMD` bytes.
    public var scte35Command: [UInt8]? { attributes["SCTE35-CMD"]?.hexadecimalBytes }
    /// True for `CLASS="com.apple.hls.interstitial"`.
    public var isInterstitial: Bool { dateRangeClass == Interstitial.dateRangeClass }

    /// The end date from END-DATE, or START-DATE plus DURATION.
    public var resolvedEndDate: Date? {
        if let endDate { return endDate }
        if let startDate, let duration { return startDate.addingTimeInterval(duration) }
        return nil
    }

    /// Equality ignores ``line``.
    public static func == (lhs: DateRange, rhs: DateRange) -> Bool { lhs.attributes == rhs.attributes }

    /// Hashes the fields that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(attributes) }
}

/// The interstitial attributes of a DATERANGE (RFC 8216bis appendix D).
public struct Interstitial: Sendable, Hashable {
    /// The `CLASS` value that marks an interstitial.
    public static let dateRangeClass = "com.apple.hls.interstitial"

    /// `X-ASSET-URI`: one asset to play.
    public var assetURI: String?
    /// `X-ASSET-LIST`: a JSON list of assets.
    public var assetList: String?
    /// `X-RESUME-OFFSET` in seconds; nil means the break's duration.
    public var resumeOffset: Double?
    /// `X-PLAYOUT-LIMIT` in seconds.
    public var playoutLimit: Double?
    /// `X-SNAP` values (`OUT`, `IN`).
    public var snap: [String]
    /// `X-RESTRICT` values (`SKIP`, `JUMP`).
    public var restrict: [String]
    /// `CUE` values (`PRE`, `POST`, `ONCE`).
    public var cue: [String]

    /// Reads the interstitial attributes of a date range.
    public init(_ dateRange: DateRange) {
        let attributes = dateRange.attributes
        func list(_ name: String) -> [String] {
            attributes.string(name).map { $0.split(separator: ",").map(String.init) } ?? []
        }
        assetURI = attributes.string("X-ASSET-URI")
        assetList = attributes.string("X-ASSET-LIST")
        resumeOffset = attributes.double("X-RESUME-OFFSET")
        playoutLimit = attributes.double("X-PLAYOUT-LIMIT")
        snap = list("X-SNAP")
        restrict = list("X-RESTRICT")
        cue = list("CUE")
    }
}
