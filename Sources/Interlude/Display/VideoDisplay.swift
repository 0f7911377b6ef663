import Foundation

/// What the SDK needs from the app's player to play ads in it. IMA's
/// `IMAVideoDisplay`. The app's player plays the ad; the SDK tells it what
/// to load and listens to what happens through ``VideoDisplayDelegate``.
@MainActor
public protocol VideoDisplay: AnyObject {
    /// Receives playback events. Set by the SDK.
    var delegate: (any VideoDisplayDelegate)? { get set }
    /// 0 (muted) to 1.
    var volume: Float { get set }
    /// Seconds into the loaded media.
    var currentMediaTime: TimeInterval { get }
    /// Seconds of media in total (0 until known).
    var totalMediaTime: TimeInterval { get }
    /// Seconds of media buffered from the start.
    var bufferedMediaTime: TimeInterval { get }
    var isPlaying: Bool { get }
    /// Loads `url` (and optional subtitles), without playing.
    func load(_ url: URL, subtitles: [[String: String]]?)
    func play()
    func pause()
    /// Stops and unloads.
    func reset()
    func seek(to time: TimeInterval)
    /// Loads a stream with its ads stitched in (and optional subtitles),
    /// without playing. IMA's `loadStream:withSubtitles:`. The default loads
    /// it as media with ``load(_:subtitles:)``.
    func loadStream(_ url: URL, subtitles: [[String: String]]?)
    /// Moves the stream's playhead to `time` seconds of stream time (ads
    /// included). IMA's `seekStreamToTime:`. The default is ``seek(to:)``.
    func seekStream(to time: TimeInterval)
    /// Interlude: how much of the video's area is on screen now, 0 to 1;
    /// nil when the display cannot tell (the default). It decides which of
    /// an ad's `<ViewableImpression>` URLs fire: `Viewable` once at least
    /// half of the video was on screen for two continuous seconds of play,
    /// else `NotViewable` at the ad's end, or `ViewUndetermined` when the
    /// display never told. IMA measures this itself (Active View); here the
    /// display that knows its view reports it.
    var visibleFraction: Double? { get }
}

extension VideoDisplay {
    // Stream playback came after ads playback: a display written before it
    // keeps compiling and plays streams through its media calls.

    /// Loads the stream as media, with ``load(_:subtitles:)``: the default
    /// of IMA's `loadStream:withSubtitles:` (required in IMA, optional here
    /// so displays written for client-side ads keep compiling).
    public func loadStream(_ url: URL, subtitles: [[String: String]]?) { load(url, subtitles: subtitles) }
    /// Seeks the stream as media, with ``seek(to:)``: the default of IMA's
    /// `seekStreamToTime:` (required in IMA, optional here).
    public func seekStream(to time: TimeInterval) { seek(to: time) }
    /// Unknown: a display that does not measure its view leaves every
    /// ad's viewability undetermined.
    public var visibleFraction: Double? { nil }

    /// IMA's Swift spelling of `loadStream:withSubtitles:` (the seed's
    /// `imaVideoDisplay.loadStream(url, withSubtitles: [])`): forwards to
    /// ``loadStream(_:subtitles:)``, which is what a display implements.
    public func loadStream(_ url: URL, withSubtitles subtitles: [[String: String]]?) {
        loadStream(url, subtitles: subtitles)
    }
}

/// Playback events of a ``VideoDisplay``. IMA's `IMAVideoDisplayDelegate`.
@MainActor
public protocol VideoDisplayDelegate: AnyObject {
    func videoDisplayDidLoad(_ display: any VideoDisplay)
    func videoDisplayDidStart(_ display: any VideoDisplay)
    func videoDisplayDidPause(_ display: any VideoDisplay)
    func videoDisplayDidResume(_ display: any VideoDisplay)
    func videoDisplayDidComplete(_ display: any VideoDisplay)
    func videoDisplayDidClick(_ display: any VideoDisplay)
    func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error)
    func videoDisplay(
        _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval)
    /// Timed metadata from the stream (ID3 or DATERANGE attributes).
    func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String])
    /// Timed metadata with the stream time it belongs to, in seconds: ID3
    /// frames by frame ID without AVFoundation's `id3/` (`["TXXX":
    /// "google_…"]`), or DATERANGE client attributes. A display may deliver
    /// it before the playhead gets there; the stream manager fires it on
    /// time. IMA's `videoDisplay:didReceiveTimedMetadata:` with the time the
    /// IMA SDK reads from the player. The default forwards to
    /// ``videoDisplay(_:didReceiveTimedMetadata:)``.
    func videoDisplay(
        _ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String],
        presentationTime: TimeInterval)
    /// Playback stopped to wait for media. IMA's `videoDisplayDidStartBuffering:`.
    func videoDisplayDidStartBuffering(_ display: any VideoDisplay)
    /// Media is buffered up to `mediaTime` seconds. IMA's `videoDisplay:didBufferToMediaTime:`.
    func videoDisplay(_ display: any VideoDisplay, didBufferToMediaTime mediaTime: TimeInterval)
    /// Enough media is buffered for playback to go on. IMA's `videoDisplayIsPlaybackReady:`.
    func videoDisplayIsPlaybackReady(_ display: any VideoDisplay)
}

extension VideoDisplayDelegate {
    // Buffering came later than the other calls: a delegate written before
    // it (outside this package) keeps compiling and ignores buffering.
    public func videoDisplayDidStartBuffering(_ display: any VideoDisplay) {}
    public func videoDisplay(_ display: any VideoDisplay, didBufferToMediaTime mediaTime: TimeInterval) {}
    public func videoDisplayIsPlaybackReady(_ display: any VideoDisplay) {}
    /// Forwards to ``videoDisplay(_:didReceiveTimedMetadata:)``, dropping the
    /// time. Interlude's own: IMA's `IMAVideoDisplayDelegate` has only
    /// `videoDisplay:didReceiveTimedMetadata:` (its display fires each frame
    /// when it plays, so no time is needed).
    public func videoDisplay(
        _ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String],
        presentationTime: TimeInterval
    ) {
        videoDisplay(display, didReceiveTimedMetadata: metadata)
    }
}

/// The content player's position, read to schedule VMAP breaks. IMA's `IMAContentPlayhead`.
@MainActor
public protocol ContentPlayhead: AnyObject {
    /// Seconds into the content.
    var currentTime: TimeInterval { get }
}

/// A place in the app's layout for a companion ad. IMA's `IMACompanionAdSlot`.
///
/// IMA draws the companion into the slot's view; Interlude hands it to the
/// app (``onFilled``) when an ad with a companion of the slot's size
/// starts, and sends the companion's `creativeView` beacons then. When the
/// user taps what the app drew, the app calls ``clicked()``: the SDK sends
/// the companion's click tracking, opens its click-through through the
/// manager's link opener, and calls ``onClicked``.
@MainActor
public final class CompanionAdSlot {
    public let width: Int
    public let height: Int
    /// Called with the companion shown in this slot.
    public var onFilled: ((CompanionAd) -> Void)?
    /// Called when the user clicks the companion (after ``clicked()``).
    public var onClicked: ((CompanionAd) -> Void)?
    /// Interlude: the companion this slot was last filled with; it stays
    /// after its ad ends, as a companion stays on screen.
    public private(set) var companion: CompanionAd?
    /// The manager's handling of a click on ``companion`` (holds it weakly).
    private var clickHandler: ((CompanionAd) -> Void)?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Interlude: the user clicked the companion shown in this slot. IMA's
    /// slot notices its own clicks; here the app reports them. Ignored
    /// while the slot is empty.
    public func clicked() {
        guard let companion else { return }
        clickHandler?(companion)
        onClicked?(companion)
    }

    /// Fills the slot: the manager calls it when the companion's ad starts.
    func fill(with companion: CompanionAd, onClick: @escaping (CompanionAd) -> Void) {
        self.companion = companion
        clickHandler = onClick
        onFilled?(companion)
    }
}

/// Where ads are shown: the video display and companion slots. IMA's
/// `IMAAdDisplayContainer`.
@MainActor
public final class AdDisplayContainer {
    /// The display ads play in.
    public let videoDisplay: any VideoDisplay
    public let companionSlots: [CompanionAdSlot]

    public init(videoDisplay: any VideoDisplay, companionSlots: [CompanionAdSlot] = []) {
        self.videoDisplay = videoDisplay
        self.companionSlots = companionSlots
    }
}
