/// A VMAP 1.0 document: the ad breaks of a piece of content.
public struct VMAPDocument: Hashable, Sendable {
    /// The `version` attribute (`1.0`).
    public var version: String
    public var adBreaks: [AdBreak]
    public var extensions: [VASTExtension]

    public init(version: String = "1.0", adBreaks: [AdBreak] = [], extensions: [VASTExtension] = []) {
        self.version = version
        self.adBreaks = adBreaks
        self.extensions = extensions
    }
}

/// `<vmap:AdBreak>`.
public struct AdBreak: Hashable, Sendable {
    /// `breakType` entries: linear, nonlinear, display (open-ended).
    public struct BreakType: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let linear = BreakType(rawValue: "linear")
        public static let nonlinear = BreakType(rawValue: "nonlinear")
        public static let display = BreakType(rawValue: "display")
    }

    public var timeOffset: BreakTimeOffset
    public var breakTypes: [BreakType]
    public var breakID: String?
    /// `repeatAfter`: play the break again every this much content time.
    public var repeatAfter: VASTTime?
    public var adSource: AdSource?
    public var trackingEvents: [BreakTrackingEvent]
    public var extensions: [VASTExtension]

    public init(
        timeOffset: BreakTimeOffset, breakTypes: [BreakType] = [.linear], breakID: String? = nil,
        repeatAfter: VASTTime? = nil, adSource: AdSource? = nil, trackingEvents: [BreakTrackingEvent] = [],
        extensions: [VASTExtension] = []
    ) {
        self.timeOffset = timeOffset
        self.breakTypes = breakTypes
        self.breakID = breakID
        self.repeatAfter = repeatAfter
        self.adSource = adSource
        self.trackingEvents = trackingEvents
        self.extensions = extensions
    }
}

/// VMAP `timeOffset` in its five forms.
public enum BreakTimeOffset: Hashable, Sendable, CustomStringConvertible {
    /// `start`: a pre-roll.
    case start
    /// `end`: a post-roll.
    case end
    /// `HH:MM:SS(.mmm)` into the content.
    case time(VASTTime)
    /// `n%` of the content's duration.
    case percent(Double)
    /// `#n`: the n-th cue point (1-based) of the content.
    case position(Int)

    /// Reads any of the five forms.
    public init?(parsing text: some StringProtocol) {
        switch text {
        case "start": self = .start
        case "end": self = .end
        default:
            if text.hasPrefix("#") {
                guard let position = Int(text.dropFirst()), position >= 1 else { return nil }
                self = .position(position)
            } else if text.hasSuffix("%") {
                guard let value = Double(text.dropLast()), value.isFinite, value >= 0, value <= 100 else { return nil }
                self = .percent(value)
            } else if let time = VASTTime(parsing: text) {
                self = .time(time)
            } else {
                return nil
            }
        }
    }

    /// The offset in content seconds, given the content's duration when
    /// known: 0 for `start`, `duration` (or nil) for `end`, nil for `#n`.
    public func seconds(contentDuration: Double?) -> Double? {
        switch self {
        case .start: return 0
        case .end: return contentDuration
        case .time(let time): return time.seconds
        case .percent(let percent): return contentDuration.map { $0 * percent / 100 }
        case .position: return nil
        }
    }

    public var formatted: String {
        switch self {
        case .start: return "start"
        case .end: return "end"
        case .time(let time): return time.formatted
        case .percent(let percent): return formatNumber(percent) + "%"
        case .position(let position): return "#\(position)"
        }
    }

    public var description: String { formatted }
}

/// `<vmap:AdSource>`: where a break's ads come from.
public struct AdSource: Hashable, Sendable {
    /// The ad response of the source.
    public enum Content: Hashable, Sendable {
        /// `VASTAdData`: a VAST document embedded in the VMAP.
        case vastAdData(VASTDocument)
        /// `AdTagURI templateType="vast3"`: a URL to fetch.
        case adTagURI(templateType: String?, url: VASTURLTemplate)
        /// `CustomAdData templateType="…"`: another format, raw XML kept.
        case customAdData(templateType: String?, rawXML: String)
    }

    public var id: String?
    public var allowMultipleAds: Bool?
    public var followRedirects: Bool?
    /// nil when the source held nothing usable (a warning says why).
    public var content: Content?

    public init(id: String? = nil, allowMultipleAds: Bool? = nil, followRedirects: Bool? = nil, content: Content?) {
        self.id = id
        self.allowMultipleAds = allowMultipleAds
        self.followRedirects = followRedirects
        self.content = content
    }
}

/// `<vmap:Tracking event="breakStart|breakEnd|error">`.
public struct BreakTrackingEvent: Hashable, Sendable {
    /// A break tracking event name (open-ended).
    public struct Event: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let breakStart = Event(rawValue: "breakStart")
        public static let breakEnd = Event(rawValue: "breakEnd")
        public static let error = Event(rawValue: "error")
    }

    public var event: Event
    public var url: VASTURLTemplate

    public init(event: Event, url: VASTURLTemplate) {
        self.event = event
        self.url = url
    }
}

/// A parsed ad document: VAST or VMAP.
public enum AdDocument: Hashable, Sendable {
    case vast(VASTDocument)
    case vmap(VMAPDocument)
}
