import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The seed's view controller (`dai-pod-serving-ios.en.md`), call for call
/// in Interlude, with a scripted display where the seed has
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
            imaVideoDisplay.loadStream(streamUrl!, subtitles: [])
            imaVideoDisplay.play()
        } else {
            streamManager!.loadThirdPartyStream(streamUrl!, streamSubtitles: [])
        }
    }

    func adsLoader(_ loader: AdsLoader, failedWith adErrorData: AdLoadingErrorData) {
        events.append("Error loading DAI stream. Error message: \(adErrorData.adError.message)")
        backupPlayed = true
    }

    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent) {
        events.append("Ad event \(event.typeString).")
        if event.type == .started, let ad = event.ad {
            events.append(
                "Showing ad \(ad.adPodInfo.adPosition)/\(ad.adPodInfo.totalAds), bumper: \(ad.adPodInfo.isBumper ? "YES" : "NO"), pod index: \(ad.adPodInfo.podIndex)"
            )
        }
    }

    func streamManager(_ streamManager: StreamManager, didReceive error: AdError) {
        events.append("StreamManager error with type: \(error.type) code: \(error.code) message: \(error.message)")
    }
}

@Suite("The seed's flow")
@MainActor
struct StreamSeedFlowTests {
    @Test func liveAsTheSeedWritesIt() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 10)
        let controller = SeedViewController(requestType: .live, loader: harness.loader, display: harness.display)
        controller.requestStream()
        await harness.waitUntil { controller.streamManager != nil && controller.streamManager?.fetchTask == nil }
        await harness.clock.simulate(for: 45)
        #expect(controller.events.first == "DAI stream loaded. Stream session ID: stream-1")
        #expect(
            harness.display.commands.prefix(2) == [
                "loadStream http://127.0.0.1:9/vtp/stream_id/stream-1/video/interlude-film.m3u8", "play",
            ])
        #expect(controller.events.contains("Ad event AD_BREAK_STARTED."))
        #expect(controller.events.contains("Showing ad 3/3, bumper: NO, pod index: 7"))
        #expect(controller.events.filter { $0 == "Ad event COMPLETE." }.count == 3)
        #expect(controller.events.last == "Ad event AD_PERIOD_ENDED.")
        controller.streamManager?.destroy()
    }

    @Test func vodAsTheSeedWritesIt() async throws {
        let harness = StreamHarness.vod()
        let controller = SeedViewController(requestType: .vod, loader: harness.loader, display: harness.display)
        controller.requestStream()
        await harness.waitUntil { controller.streamManager?.cuepoints.isEmpty == false }
        await harness.waitUntil { harness.display.isPlaying }
        await harness.clock.simulate(for: 182)
        #expect(controller.events.contains("Ad event STREAM_LOADED."))
        #expect(controller.events.contains("Showing ad 1/2, bumper: NO, pod index: 0"))
        #expect(controller.events.contains("Showing ad 2/3, bumper: NO, pod index: 1"))
        #expect(controller.events.contains("Showing ad 1/1, bumper: NO, pod index: 2"))
        #expect(controller.events.filter { $0 == "Ad event AD_BREAK_ENDED." }.count == 3)
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
}
