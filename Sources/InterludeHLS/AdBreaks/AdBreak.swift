import Foundation

/// How an ad break is marked in a media playlist. A struct of static values
/// so new marker styles never break a caller's `switch`.
public struct AdMarkerStyle: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable identifier, e.g. `"dateRange"`.
    public let name: String

    /// Creates a style from its identifier; prefer the static values.
    public init(_ name: String) { self.name = name }

    /// `EXT-X-DATERANGE` with `SCTE35-OUT` / `SCTE35-IN` (RFC 8216bis 4.4.5.1.4).
    public static let dateRange = AdMarkerStyle("dateRange")
    /// `EXT-X-CUE-OUT` / `EXT-X-CUE-OUT-CONT` / `EXT-X-CUE-IN`.
    public static let cueOut = AdMarkerStyle("cueOut")
    /// `EXT-OATCLS-SCTE35` alone (the SCTE-35 payload says out or in).
    public static let oatcls = AdMarkerStyle("oatcls")
    /// `EXT-X-SPLICEPOINT-SCTE35` alone.
    public static let splicePoint = AdMarkerStyle("splicePoint")
    /// `EXT-X-CUE:TYPE=SpliceOut` … (`EXT-X-CUE-CONT`) … `EXT-X-CUE:TYPE=SpliceIn`:
    /// Adobe's markers (AWS Elemental MediaLive's "Adobe" style writes only
    /// the first, with the break's `DURATION`).
    public static let adobeCue = AdMarkerStyle("adobeCue")
    /// `EXT-X-SCTE35:CUE="…",CUE-OUT=YES` … `CUE-OUT=CONT` … `CUE-IN=YES`
    /// (or the `CUE` payload alone saying out or in), as x9k3 and other
    /// SCTE-35 segmenters write it.
    public static let scte35Cue = AdMarkerStyle("scte35Cue")
    /// An interstitial DATERANGE, `CLASS="com.apple.hls.interstitial"`.
    public static let interstitial = AdMarkerStyle("interstitial")

    /// The identifier.
    public var description: String { name }
}

/// An ad break found in a media playlist, whatever its marker style.
public struct AdBreak: Sendable, Hashable {
    /// The marker style that announced the break.
    public var style: AdMarkerStyle
    /// The DATERANGE `ID`; nil for CUE-style markers.
    public var id: String?
    /// Seconds from the start of the playlist's first segment; negative when
    /// the break began before the window (seen from CUE-OUT-CONT).
    public var startTime: Double
    /// The wall-clock start, when the playlist carries PROGRAM-DATE-TIME.
    public var startDate: Date?
    /// The announced duration (CUE-OUT value, PLANNED-DURATION, SCTE-35 break duration).
    public var plannedDuration: Double?
    /// The duration the playlist shows once the break ended (CUE-IN,
    /// SCTE35-IN, DURATION, END-DATE); nil while it is still open.
    public var actualDuration: Double?
    /// The indices of the segments inside the break.
    public var segmentRange: Range<Int>
    /// True once the end of the break is in the playlist: its CUE-IN or
    /// SCTE35-IN, its DURATION or END-DATE, or a segment boundary that
    /// reaches its planned duration when no end marker came.
    public var isComplete: Bool
    /// The SCTE-35 section that started the break, as bytes.
    public var scte35Out: [UInt8]?
    /// The SCTE-35 section that ended it, as bytes.
    public var scte35In: [UInt8]?
    /// The interstitial attributes, for ``AdMarkerStyle/interstitial``.
    public var interstitial: Interstitial?
    /// The attributes of the `EXT-X-ASSET` written with the break's CUE-OUT
    /// (SCTE-35 enhanced: `CAID` or the UPID of the avail), if any.
    public var asset: HLSAttributeList?
    /// The line of the marker that started the break; 0 when unknown.
    public var line: Int

    /// True when the break's start is inside the playlist: false for a break
    /// seen only from CUE-OUT-CONT or a START-DATE before the first segment.
    public var startsInPlaylist: Bool { startTime > -0.0005 }

    /// Creates a break; used by the detector and by tests.
    public init(
        style: AdMarkerStyle, id: String? = nil, startTime: Double, startDate: Date? = nil,
        plannedDuration: Double? = nil,
        actualDuration: Double? = nil, segmentRange: Range<Int>, isComplete: Bool, scte35Out: [UInt8]? = nil,
        scte35In: [UInt8]? = nil, interstitial: Interstitial? = nil, line: Int = 0
    ) {
        self.style = style
        self.id = id
        self.startTime = startTime
        self.startDate = startDate
        self.plannedDuration = plannedDuration
        self.actualDuration = actualDuration
        self.segmentRange = segmentRange
        self.isComplete = isComplete
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.interstitial = interstitial
        self.asset = nil
        self.line = line
    }

    /// The decoded ``scte35Out``, nil when absent or undecodable; decoded as
    /// the detector reads it, without checking the CRC.
    public var scte35OutSection: SpliceInfoSection? { scte35Out.flatMap(SpliceInfoSection.init(cueBytes:)) }
    /// The decoded ``scte35In``, nil when absent or undecodable; decoded as
    /// the detector reads it, without checking the CRC.
    public var scte35InSection: SpliceInfoSection? { scte35In.flatMap(SpliceInfoSection.init(cueBytes:)) }
}
