import Foundation

/// What to register with a pod-serving API, and where the stream will
/// play: ``PodStreamRequest`` for a livestream, ``PodVODStreamRequest`` for
/// video on demand. IMA's `IMAStreamRequest` (abstract, as there).
///
/// Hand it to ``AdsLoader/requestStream(with:)`` or
/// ``AdsLoader/loadStream(with:)``. It is checked before anything is sent:
/// an empty ``networkCode`` or custom asset key, or a missing or non-http
/// ``serverURL``, fails with 1101 (`invalidArguments`).
@MainActor
public class StreamRequest {
    /// The Ad Manager network code the stream belongs to (required). IMA's `networkCode`.
    public let networkCode: String
    /// Where the ad UI and companions go. IMA's `adDisplayContainer`.
    public let adDisplayContainer: AdDisplayContainer
    /// The player the stream plays in. IMA's `videoDisplay`.
    public let videoDisplay: any VideoDisplay
    /// Tells the stream manager when picture in picture starts and stops.
    /// IMA's `IMAPictureInPictureProxy`. Default nil.
    public let pictureInPictureProxy: PictureInPictureProxy?
    /// Handed back in ``AdsLoadedData`` and ``AdLoadingErrorData``. IMA's `userContext`.
    public let userContext: (any Sendable)?

    /// The stream request API key, sent as `api-key`. IMA's `apiKey`. Default nil.
    public var apiKey: String?
    /// The stream's authorization token (an HMAC token), sent as
    /// `auth-token`. IMA's `authToken`. Default nil.
    public var authToken: String?
    /// Targeting sent with the registration (`cust_params`, `ppid`, …):
    /// form fields for a livestream, `targeting_parameters` for VOD. IMA's
    /// `adTagParameters`. Default empty.
    public var adTagParameters: [String: String] = [:]
    /// Appended to the query of the stream URL given to
    /// ``StreamManager/loadThirdPartyStream(_:streamSubtitles:)``, without
    /// a leading `?` or `&`. IMA's `manifestURLSuffix`. Default nil.
    public var manifestURLSuffix: String?
    /// The page or content the stream belongs to, sent as the `url`
    /// targeting parameter unless ``adTagParameters`` has one. IMA's `contentURL`. Default nil.
    public var contentURL: URL?
    /// The ID to debug the stream with in a stream activity monitor, sent
    /// as `stream_activity_monitor_id` (ours). IMA's `streamActivityMonitorID`. Default nil.
    public var streamActivityMonitorID: String?

    // Interlude additions.

    /// The pod-serving API's base URL: `https://dai.google.com` or an
    /// `interlude serve` (`http://127.0.0.1:8080`). No default: a request
    /// without one fails with 1101. Interlude's own: IMA's SDK always talks
    /// to Google's servers.
    public var serverURL: URL?
    /// The stream to play instead when registration fails or the stream
    /// cannot play (the "backup stream" of Google's DAI best practices).
    /// Default nil. Interlude's own: an IMA app keeps its backup URL itself.
    public var backupStreamURL: URL?
    /// Whether the SDK itself loads and plays ``backupStreamURL`` in
    /// ``videoDisplay`` on such a failure (the failure is still reported).
    /// Default false: the app decides, as in the seed. Interlude's own.
    public var playsBackupStreamOnFailure = false
    /// Seconds allowed for the registration exchange; past it the load
    /// fails with 301. Default 8. Interlude's own (IMA's is fixed).
    public var registrationTimeout: TimeInterval = 8

    /// Livestream (with its custom asset key) or VOD.
    enum Kind: Sendable, Hashable {
        case live(customAssetKey: String)
        case vod
    }

    let kind: Kind

    init(
        kind: Kind, networkCode: String, adDisplayContainer: AdDisplayContainer, videoDisplay: any VideoDisplay,
        pictureInPictureProxy: PictureInPictureProxy?, userContext: (any Sendable)?
    ) {
        self.kind = kind
        self.networkCode = networkCode
        self.adDisplayContainer = adDisplayContainer
        self.videoDisplay = videoDisplay
        self.pictureInPictureProxy = pictureInPictureProxy
        self.userContext = userContext
    }

    /// True for a livestream request.
    var isLive: Bool {
        if case .live = kind { return true }
        return false
    }
}

/// A pod-serving livestream: registered at
/// `POST /ssai/pods/api/v1/network/{network_code}/custom_asset/{custom_asset_key}/stream`
/// with a form body. IMA's `IMAPodStreamRequest`.
@MainActor
public final class PodStreamRequest: StreamRequest {
    /// The custom asset key of the livestream event (required). IMA's `customAssetKey`.
    public let customAssetKey: String

    /// A livestream request. IMA's
    /// `initWithNetworkCode:customAssetKey:adDisplayContainer:videoDisplay:pictureInPictureProxy:userContext:`.
    public init(
        networkCode: String, customAssetKey: String, adDisplayContainer: AdDisplayContainer,
        videoDisplay: any VideoDisplay, pictureInPictureProxy: PictureInPictureProxy? = nil,
        userContext: (any Sendable)? = nil
    ) {
        self.customAssetKey = customAssetKey
        super.init(
            kind: .live(customAssetKey: customAssetKey), networkCode: networkCode,
            adDisplayContainer: adDisplayContainer, videoDisplay: videoDisplay,
            pictureInPictureProxy: pictureInPictureProxy, userContext: userContext)
    }
}

/// A pod-serving VOD stream (the VTP knows the content): registered at
/// `POST /ondemand/pods/api/v1/network/{network_code}/stream_registration`
/// with a JSON body. IMA's `IMAPodVODStreamRequest`.
@MainActor
public final class PodVODStreamRequest: StreamRequest {
    /// A VOD request. IMA's
    /// `initWithNetworkCode:adDisplayContainer:videoDisplay:pictureInPictureProxy:userContext:`.
    public init(
        networkCode: String, adDisplayContainer: AdDisplayContainer, videoDisplay: any VideoDisplay,
        pictureInPictureProxy: PictureInPictureProxy? = nil, userContext: (any Sendable)? = nil
    ) {
        super.init(
            kind: .vod, networkCode: networkCode, adDisplayContainer: adDisplayContainer,
            videoDisplay: videoDisplay, pictureInPictureProxy: pictureInPictureProxy, userContext: userContext)
    }
}

/// Tells the stream manager when the app's player goes into picture in
/// picture and back: while it is active the custom ad UI is hidden (a
/// picture-in-picture window has no room for Learn More), and it comes back
/// when it ends. Call the two methods from your
/// `AVPictureInPictureControllerDelegate`. IMA's `IMAPictureInPictureProxy`.
@MainActor
public final class PictureInPictureProxy {
    /// Whether picture in picture is on now. Interlude's own (IMA's proxy
    /// keeps this to itself).
    public private(set) var isPictureInPictureActive = false
    private var observers: [UInt64: @MainActor (Bool) -> Void] = [:]
    private var nextObserver: UInt64 = 0

    /// A proxy with picture in picture off. IMA's
    /// `initWithAVPictureInPictureControllerDelegate:`, without the app's
    /// delegate: IMA's proxy stands in as the controller's delegate and
    /// forwards to the app's, here the app's delegate calls the proxy.
    public init() {}

    /// Picture in picture started: call it from
    /// `pictureInPictureControllerDidStartPictureInPicture(_:)`. Interlude's
    /// own; IMA's proxy receives that `AVPictureInPictureControllerDelegate`
    /// call itself.
    public func pictureInPictureDidStart() { setActive(true) }

    /// Picture in picture ended: call it from
    /// `pictureInPictureControllerDidStopPictureInPicture(_:)`. Interlude's
    /// own; IMA's proxy receives that `AVPictureInPictureControllerDelegate`
    /// call itself.
    public func pictureInPictureDidStop() { setActive(false) }

    private func setActive(_ active: Bool) {
        guard active != isPictureInPictureActive else { return }
        isPictureInPictureActive = active
        for observer in observers.values { observer(active) }
    }

    /// Calls `observer` on each change until ``removeObserver(_:)``.
    func addObserver(_ observer: @escaping @MainActor (Bool) -> Void) -> UInt64 {
        nextObserver += 1
        observers[nextObserver] = observer
        return nextObserver
    }

    func removeObserver(_ token: UInt64) { observers[token] = nil }
}
