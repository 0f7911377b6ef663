import Foundation

/// What a ``LiveStitchTimeline`` tells its pod provider about a break it
/// found in the origin window, the first time it sees the break's start.
public struct LiveBreakRequest: Sendable, Hashable, Codable {
    /// The break's identity, the same for every viewer of the channel and
    /// on every reload: the DATERANGE `ID` when the origin writes one,
    /// otherwise `cue-` and the origin media sequence number of its first
    /// segment (`cue-1043`). Corresponds to the pod ID of IMA's pod serving.
    public var breakID: String
    /// The origin media sequence number of the break's first segment.
    public var originStartSequence: UInt64
    /// The wall-clock start (the origin's PROGRAM-DATE-TIME), when it has one.
    public var startDate: Date?
    /// The announced duration in seconds (CUE-OUT, PLANNED-DURATION, the
    /// SCTE-35 break duration); nil when the break ends only at its CUE-IN.
    public var plannedDuration: Double?
    /// The marker style that announced the break.
    public var style: AdMarkerStyle
    /// The SCTE-35 section that started it, as bytes, if the origin wrote one.
    public var scte35Out: [UInt8]?

    /// Creates a request; the timeline makes these.
    public init(
        breakID: String, originStartSequence: UInt64, startDate: Date? = nil, plannedDuration: Double? = nil,
        style: AdMarkerStyle = .cueOut, scte35Out: [UInt8]? = nil
    ) {
        self.breakID = breakID
        self.originStartSequence = originStartSequence
        self.startDate = startDate
        self.plannedDuration = plannedDuration
        self.style = style
        self.scte35Out = scte35Out
    }
}

/// Decides what plays in the breaks of a live stream: the server answers
/// from its stored decisions, so every call for one break gives the same
/// answer (the timeline asks again on each reload the break is visible in,
/// and its numbering is only as stable as these answers).
public protocol LiveStitchPodProvider {
    /// The pod for a break: its ads' segments (then slate, if the pod
    /// serving filled the planned duration with slate), for this rendition.
    /// Nil leaves the break's own content, for good. Throw (for example
    /// when the decision store is unreachable) to fail the reload without
    /// recording anything.
    func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod?

    /// Slate segments lasting `duration` seconds in all, played when a break
    /// outlasts its pod. The timeline asks for whole slate segments of
    /// ``LiveStitchTimeline/Options/slateSegmentDuration`` while the break is
    /// open and for the remainder once it ends. Return an empty array to
    /// have no slate (content then resumes early, at its own time).
    func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment]

    /// The interstitial asset (the pod's own media playlist) for
    /// ``LiveStitchTimeline/Mode/interstitials``; nil writes no interstitial
    /// for the break. Defaults to nil.
    func interstitialAssetURI(for request: LiveBreakRequest) throws(HLSError) -> String?
}

extension LiveStitchPodProvider {
    /// No interstitials unless the provider says otherwise.
    public func interstitialAssetURI(for request: LiveBreakRequest) throws(HLSError) -> String? { nil }
}

/// A ``LiveStitchPodProvider`` made of closures, for tests and small servers.
public struct LiveStitchPods: LiveStitchPodProvider, Sendable {
    private let podFor: @Sendable (LiveBreakRequest) -> AdPod?
    private let slateFor: @Sendable (Double, LiveBreakRequest) -> [AdSegment]
    private let assetFor: @Sendable (LiveBreakRequest) -> String?

    /// Creates a provider; `slate` defaults to none, `interstitialAssetURI` to nil.
    public init(
        pod: @escaping @Sendable (LiveBreakRequest) -> AdPod?,
        slate: @escaping @Sendable (Double, LiveBreakRequest) -> [AdSegment] = { _, _ in [] },
        interstitialAssetURI: @escaping @Sendable (LiveBreakRequest) -> String? = { _ in nil }
    ) {
        podFor = pod
        slateFor = slate
        assetFor = interstitialAssetURI
    }

    /// Calls the `pod` closure.
    public func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? { podFor(request) }
    /// Calls the `slate` closure.
    public func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] { slateFor(duration, request) }
    /// Calls the `interstitialAssetURI` closure.
    public func interstitialAssetURI(for request: LiveBreakRequest) throws(HLSError) -> String? { assetFor(request) }
}
