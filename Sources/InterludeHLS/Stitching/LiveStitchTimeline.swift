import Foundation

/// The live stitcher's timeline for one viewer's stream and one rendition:
/// each reload of the origin's media playlist goes in, the viewer's media
/// playlist comes out, with every break the origin marks (in any style
/// ``MediaPlaylist/adBreaks`` reads) replaced by the pod the provider
/// decided for it, filled to the break's length with slate.
///
/// Across reloads the output obeys RFC 8216bis 6.2.2 as a live playlist
/// must: MEDIA-SEQUENCE rises by exactly the number of segments that left
/// the window, every segment keeps its number, URI and tags,
/// DISCONTINUITY-SEQUENCE rises by exactly the DISCONTINUITY tags that left,
/// PROGRAM-DATE-TIME stays the origin's, and content resumes on time after
/// each break (the pod and slate last exactly as long as the content they
/// replace).
///
/// The numbering: an origin content segment `n` is output segment
/// `n + Σ (pod segments − replaced segments)` over the breaks before it;
/// a break's pod segment `k` is `originStart + offset + k`. Discontinuity
/// numbers shift the same way by the tags each break adds and removes.
/// Each break is a ``LiveBreakRecord`` in ``state``: decided when the
/// break's start is first seen, ended once the origin shows its end, never
/// changed otherwise. Output is a pure function of the origin window and the
/// state, so two processes that load the same state answer a reload with the
/// same bytes; store ``state`` after each reload (``LiveStitchState/merge(_:)``
/// reconciles two processes' writes).
///
/// Cases, each with one answer:
/// - A break open at the live edge is stitched as far as the origin goes: a
///   pod segment appears once the origin has covered its end.
/// - A break whose start slid out of the window keeps its pod position (the
///   record knows where it started).
/// - A break without a duration ends at its CUE-IN: the pod is cut there
///   (at a segment boundary) and slate fills what is left; a pod shorter
///   than the break is followed by slate.
/// - A break with neither an end marker nor a duration ends after
///   ``Options/maximumBreakDuration``.
/// - A stream whose first reload comes in mid-break (the start is not in the
///   window) shows that break's content: the viewer joins with content and
///   gets ads from the next break on.
///
/// No IMA counterpart: this is the server side of pod serving (the VTP).
public struct LiveStitchTimeline: Sendable, Hashable {
    /// What the stitched breaks look like.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// Pod segments replace the break's content segments (server-side insertion).
        case replace
        /// The content stays; an interstitial DATERANGE (`X-ASSET-URI` the pod's
        /// playlist, `X-RESUME-OFFSET` the break's duration) announces each break.
        case interstitials
    }

    /// How the timeline writes the stream. They are not part of the stored
    /// state: give one stream the same options on every reload (the numbers
    /// depend on them).
    public struct Options: Sendable, Hashable, Codable {
        /// Replacement (default) or interstitials.
        public var mode: Mode
        /// False (default): the origin's ad markers (CUE-OUT, CUE-OUT-CONT,
        /// CUE-IN, OATCLS, SPLICEPOINT, ASSET, SCTE-35 DATERANGEs) are
        /// dropped and DISCONTINUITY marks the splices, as personalized
        /// playlists do. True: they pass through, and the pod carries the
        /// break's own CUE-OUT, CUE-OUT-CONT and CUE-IN.
        public var passesMarkersThrough: Bool
        /// True (default): each stitched break gets a DATERANGE (ID the
        /// break ID, START-DATE, PLANNED-DURATION, then DURATION once it
        /// ends) when the origin carries PROGRAM-DATE-TIME.
        public var writesDateRanges: Bool
        /// Seconds of slate asked for at a time while a break outlasts its
        /// pod; nil (default) uses the origin's TARGETDURATION.
        public var slateSegmentDuration: Double?
        /// A break with no end marker and no duration ends after this many
        /// seconds (default 300), so a marker that never closes does not
        /// replace the channel.
        public var maximumBreakDuration: Double
        /// A pod or slate segment fits a break when it ends within this many
        /// seconds past the break's end (default 0.1 s: about three frames).
        public var fitTolerance: Double
        /// The output's TARGETDURATION is at least this (default nil: the
        /// origin's). Set it to the longest pod segment when pods can be
        /// longer than the content's segments, so it never changes.
        public var minimumTargetDuration: Int?
        /// Breaks that ended this many origin segments before the window
        /// are folded into ``LiveStitchState/settled`` (default 1000).
        public var settleAfterSegments: UInt64

        /// Creates options with the defaults above.
        public init(
            mode: Mode = .replace, passesMarkersThrough: Bool = false, writesDateRanges: Bool = true,
            slateSegmentDuration: Double? = nil, maximumBreakDuration: Double = 300, fitTolerance: Double = 0.1,
            minimumTargetDuration: Int? = nil, settleAfterSegments: UInt64 = 1000
        ) {
            self.mode = mode
            self.passesMarkersThrough = passesMarkersThrough
            self.writesDateRanges = writesDateRanges
            self.slateSegmentDuration = slateSegmentDuration
            self.maximumBreakDuration = maximumBreakDuration
            self.fitTolerance = fitTolerance
            self.minimumTargetDuration = minimumTargetDuration
            self.settleAfterSegments = settleAfterSegments
        }
    }

    /// How the stream is written.
    public var options: Options
    /// What the timeline remembers; store it after each reload.
    public var state: LiveStitchState

    /// Creates a timeline; `state` defaults to a new stream's.
    public init(options: Options = Options(), state: LiveStitchState = LiveStitchState()) {
        self.options = options
        self.state = state
    }

    /// Stitches one reload of the origin window: records the breaks that
    /// start in it, ends those it shows ending, and writes the viewer's media
    /// playlist. Throws what the provider throws, ``HLSError/Code/invalidAdPod``
    /// for a pod that cannot be spliced, and ``HLSError/Code/staleOriginWindow``
    /// for a window older than what the state has folded.
    public mutating func stitch(_ origin: MediaPlaylist, pods: some LiveStitchPodProvider) throws(HLSError)
        -> MediaPlaylist
    {
        try stitch(try PreparedOriginWindow(origin), pods: pods)
    }

    /// `stitch(_:pods:)` of a window prepared once for all its viewers: the
    /// same result as stitching the window's playlist.
    public mutating func stitch(_ prepared: PreparedOriginWindow, pods: some LiveStitchPodProvider) throws(HLSError)
        -> MediaPlaylist
    {
        let origin = prepared.playlist
        if let first = origin.segments.first, first.mediaSequence < state.settled.throughSequence {
            throw HLSError(
                .staleOriginWindow,
                "origin window starts at \(first.mediaSequence), before \(state.settled.throughSequence) which the state has folded"
            )
        }
        var window = OriginWindow(prepared)
        var updated = state
        try updateRecords(&updated, window: &window, pods: pods)
        let playlist = try write(window, state: updated, pods: pods)
        settle(&updated, window: window)
        state = updated
        return playlist
    }

    /// Refuses windows whose numbers the timeline cannot carry: a delta
    /// update (EXT-X-SKIP: ask the origin for the whole playlist), and
    /// sequence numbers so large that offsets could overflow them.
    static func checkStitchable(_ origin: MediaPlaylist) throws(HLSError) {
        let limit = UInt64(1) << 62
        guard let first = origin.segments.first, let last = origin.segments.last else { return }
        guard last.mediaSequence < limit, last.discontinuitySequence < limit, origin.discontinuitySequence < limit
        else {
            throw HLSError(
                .invalidNumber, "media or discontinuity sequence numbers of 2^62 and above cannot be stitched")
        }
        guard last.mediaSequence - first.mediaSequence == UInt64(origin.segments.count - 1),
            origin.segments.allSatisfy({ $0.tag(HLSTagName.skip) == nil })
        else {
            throw HLSError(
                .unsupportedFeature,
                "a delta update (EXT-X-SKIP) cannot be stitched: ask the origin for the whole playlist")
        }
    }

    /// `stitch(_:pods:)` on the origin's bytes, returning the output's bytes.
    public mutating func stitch(bytes: [UInt8], pods: some LiveStitchPodProvider, parser: HLSParser = HLSParser())
        throws(HLSError) -> [UInt8]
    {
        HLSWriter.bytes(try stitch(try parser.parseMedia(bytes), pods: pods))
    }
}

extension HLSError.Code {
    /// A live origin window starts before breaks the stitch state has already
    /// folded away (the window is older than the state).
    public static let staleOriginWindow = HLSError.Code("staleOriginWindow")
}
