import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The seed's view controller (`dai-pod-serving-ios.en.md`), call for call
/// in Interlude and in the seed's own spellings (`loadStream(_:withSubtitles:)`,
/// `AdEventType.STARTED`), with a scripted display where the seed has
/// `IMAAVPlayerVideoDisplay`: what the README shows compiles and plays.
@MainActor
final class SeedViewController: AdsLoaderDelegate, StreamManagerDelegate {
    enum StreamType { case live, vod }

    static let networkCode = "21775744923"
    static let customAssetKey = "interlude-live"
    static let customVTPParser = { (streamID: String) -> (String) in
        let manifestURL = "http://127.0.0.1:9/vtp/stream_id/[[STREAMID]]/video/interlude-film.m3u8"
        return manifestURL.replacingOccurrences(of: "[[STREAMID]]", with: streamID)
    }

    let requestType: StreamType
    var adsLoader: AdsLoader?
    var adDisplayContainer: AdDisplayContainer?
    var imaVideoDisplay: ScriptedStreamDisplay!
    var streamManager: StreamManager?
    var backupPlayed = false
    var events: [String] = []

    init(requestType: StreamType, loader: AdsLoader, display: ScriptedStreamDisplay) {
        self.requestType = requestType
        // viewDidLoad
        adsLoader = loader
        adsLoader?.delegate = self
        imaVideoDisplay = display
        adDisplayContainer = AdDisplayContainer(videoDisplay: imaVideoDisplay)
    }

    func requestStream() {
        if requestType == .live {
            let request = PodStreamRequest(
                networkCode: Self.networkCode, customAssetKey: Self.customAssetKey,
                adDisplayContainer: adDisplayContainer!, videoDisplay: self.imaVideoDisplay,
                pictureInPictureProxy: nil, userContext: nil)
            request.serverURL = URL(string: StreamFixtures.server)
            adsLoader?.requestStream(with: request)
        } else {
            let request = PodVODStreamRequest(
                networkCode: Self.networkCode, adDisplayContainer: adDisplayContainer!,
                videoDisplay: self.imaVideoDisplay, pictureInPictureProxy: nil, userContext: nil)
            request.serverURL = URL(string: StreamFixtures.server)
            adsLoader?.requestStream(with: request)
        }
    }

    func adsLoader(_ loader: AdsLoader, adsLoadedWith adsLoadedData: AdsLoadedData) {
        events.append("DAI stream loaded. Stream session ID: \(adsLoadedData.streamManager!.streamId!)")
        streamManager = adsLoadedData.streamManager!
        streamManager!.delegate = self
        streamManager!.initialize(with: nil)
        let streamID = streamManager!.streamId
        let urlString = Self.customVTPParser(streamID!)
        let streamUrl = URL(string: urlString)
        if requestType == .live {
            imaVideoDisplay.loadStream(streamUrl!, withSubtitles: [])
            imaVideoDisplay.play()
        } else {
            streamManager!.loadThirdPartyStream(streamUrl!, streamSubtitles: [])
        }
    }

    func adsLoader(_ loader: AdsLoader, failedWith adErrorData: AdLoadingErrorData) {
        events.append("Error loading DAI stream. Error message: \(adErrorData.adError.message!)")
        backupPlayed = true
    }

    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent) {
        events.append("Ad event \(event.typeString).")
        switch event.type {
        case AdEventType.STARTED:
            if let ad = event.ad {
                events.append(
                    "Showing ad \(ad.adPodInfo.adPosition)/\(ad.adPodInfo.totalAds), bumper: \(ad.adPodInfo.isBumper ? "YES" : "NO"), pod index: \(ad.adPodInfo.podIndex)"
                )
            }
        case AdEventType.AD_BREAK_STARTED:
            events.append("Ad break started.")
        case AdEventType.AD_BREAK_ENDED:
            events.append("Ad break ended.")
        case AdEventType.AD_PERIOD_STARTED:
            events.append("Ad period started.")
        case AdEventType.AD_PERIOD_ENDED:
            events.append("Ad period ended.")
        default:
            break
        }
    }

    func streamManager(_ streamManager: StreamManager, didReceive error: AdError) {
        events.append(
            "StreamManager error with type: \(error.type) code: \(error.code) message: \(error.message ?? "Unknown Error")"
        )
    }
}

@Suite("The seed's flow")
@MainActor
struct StreamSeedFlowTests {
    /// Simulates until the display has played to `streamTime`: when the
    /// shared pool is busy (suites run in parallel), the display's playback
    /// task may not be asleep yet when `simulate` looks for the next
    /// instant, and one `simulate(for:)` then ends with less played.
    func playUntil(_ streamTime: TimeInterval, _ harness: StreamHarness) async {
        for _ in 0..<Int(streamTime) * 4 where harness.display.currentMediaTime < streamTime - 1e-9 {
            guard harness.display.isPlaying else { break }
            await harness.clock.simulate(for: 1)
        }
    }

    @Test func liveAsTheSeedWritesIt() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 10)
        let controller = SeedViewController(requestType: .live, loader: harness.loader, display: harness.display)
        controller.requestStream()
        await harness.waitUntil { controller.streamManager != nil && controller.streamManager?.fetchTask == nil }
        await playUntil(45, harness)
        #expect(controller.events.first == "DAI stream loaded. Stream session ID: stream-1")
        #expect(
            harness.display.commands.prefix(2) == [
                "loadStream http://127.0.0.1:9/vtp/stream_id/stream-1/video/interlude-film.m3u8", "play",
            ])
        #expect(controller.events.contains("Ad event AD_BREAK_STARTED."))
        #expect(controller.events.contains("Showing ad 3/3, bumper: NO, pod index: 7"))
        #expect(controller.events.filter { $0 == "Ad event COMPLETE." }.count == 3)
        #expect(controller.events.suffix(2) == ["Ad event AD_PERIOD_ENDED.", "Ad period ended."])
        #expect(controller.events.filter { $0 == "Ad break started." }.count == 1)
        controller.streamManager?.destroy()
    }

    @Test func vodAsTheSeedWritesIt() async throws {
        let harness = StreamHarness.vod()
        let controller = SeedViewController(requestType: .vod, loader: harness.loader, display: harness.display)
        controller.requestStream()
        await harness.waitUntil { controller.streamManager?.cuepoints.isEmpty == false }
        await harness.waitUntil { harness.display.isPlaying }
        await playUntil(StreamFixtures.vodStreamDuration, harness)
        #expect(controller.events.contains("Ad event STREAM_LOADED."))
        #expect(controller.events.contains("Showing ad 1/2, bumper: NO, pod index: 0"))
        #expect(controller.events.contains("Showing ad 2/3, bumper: NO, pod index: 1"))
        #expect(controller.events.contains("Showing ad 1/1, bumper: NO, pod index: 2"))
        #expect(controller.events.filter { $0 == "Ad event AD_BREAK_ENDED." }.count == 3)
        #expect(controller.events.filter { $0 == "Ad break ended." }.count == 3)
        #expect(controller.events.filter { $0 == "Ad period started." }.count == 3)
        controller.streamManager?.destroy()
    }

    @Test func aFailedRegistrationGoesToTheSeedsBackup() async throws {
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .status(404, "no such asset")])
        let controller = SeedViewController(requestType: .live, loader: harness.loader, display: harness.display)
        controller.requestStream()
        await harness.waitUntil { controller.backupPlayed }
        #expect(controller.backupPlayed)
        #expect(controller.events.first?.contains("no such asset") == true)
    }

    @Test func theSeedsLoaderTakesNilSettings() {
        // self.adsLoader = IMAAdsLoader(settings: nil)
        let loader = AdsLoader(settings: nil)
        #expect(loader.settings == Settings())
    }

    @Test func theSeedsDisplayCallLoadsTheStream() {
        let display = ScriptedStreamDisplay()
        let url = URL(string: "http://127.0.0.1:9/vtp/stream_id/s/video/interlude-film.m3u8")!
        display.loadStream(url, withSubtitles: [])
        #expect(display.commands == ["loadStream \(url.absoluteString)"])
    }

    /// IMA's `IMAAdEventType` names (its reference's list), each the same
    /// event as Interlude's camel-case one.
    @Test func everyIMAEventTypeNameIsTheSameEvent() {
        let names: [(AdEventType, String)] = [
            (AdEventType.AD_BREAK_READY, "AD_BREAK_READY"), (AdEventType.AD_BREAK_FETCH_ERROR, "AD_BREAK_FETCH_ERROR"),
            (AdEventType.AD_BREAK_STARTED, "AD_BREAK_STARTED"), (AdEventType.AD_BREAK_ENDED, "AD_BREAK_ENDED"),
            (AdEventType.AD_PERIOD_STARTED, "AD_PERIOD_STARTED"), (AdEventType.AD_PERIOD_ENDED, "AD_PERIOD_ENDED"),
            (AdEventType.ALL_ADS_COMPLETED, "ALL_ADS_COMPLETED"), (AdEventType.CLICKED, "CLICKED"),
            (AdEventType.COMPLETE, "COMPLETE"), (AdEventType.CUEPOINTS_CHANGED, "CUEPOINTS_CHANGED"),
            (AdEventType.FIRST_QUARTILE, "FIRST_QUARTILE"),
            (AdEventType.ICON_FALLBACK_IMAGE_CLOSED, "ICON_FALLBACK_IMAGE_CLOSED"),
            (AdEventType.ICON_TAPPED, "ICON_TAPPED"), (AdEventType.LOADED, "LOADED"), (AdEventType.LOG, "LOG"),
            (AdEventType.MIDPOINT, "MIDPOINT"), (AdEventType.PAUSE, "PAUSE"), (AdEventType.RESUME, "RESUME"),
            (AdEventType.SKIPPED, "SKIPPED"), (AdEventType.STARTED, "STARTED"),
            (AdEventType.STREAM_LOADED, "STREAM_LOADED"), (AdEventType.STREAM_STARTED, "STREAM_STARTED"),
            (AdEventType.TAPPED, "TAPPED"), (AdEventType.THIRD_QUARTILE, "THIRD_QUARTILE"),
        ]
        for (type, name) in names {
            #expect(AdEvent(type: type).typeString == name)
        }
        #expect(names.map(\.0) == AdEvent.EventType.allKnown)
        #expect(AdEventType.STARTED == .started)
        #expect(AdEventType.AD_PERIOD_ENDED == .adPeriodEnded)
    }
}
