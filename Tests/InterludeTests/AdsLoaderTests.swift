import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

@MainActor
final class RecordingLoaderDelegate: AdsLoaderDelegate {
    var loaded: [AdsLoadedData] = []
    var failed: [AdLoadingErrorData] = []
    var onEvent: (() -> Void)?

    func adsLoader(_ loader: AdsLoader, adsLoadedWith data: AdsLoadedData) {
        loaded.append(data)
        onEvent?()
    }

    func adsLoader(_ loader: AdsLoader, failedWith errorData: AdLoadingErrorData) {
        failed.append(errorData)
        onEvent?()
    }
}

@MainActor
func makeLoader(
    _ http: InMemoryHTTPClient, clock: ManualClock = ManualClock(), configure: (inout Settings) -> Void = { _ in }
)
    -> AdsLoader
{
    var settings = Settings()
    // Under .build, not /tmp: each loader needs its own journal, and the build folder is thrown away.
    settings.beaconJournalDirectory = Corpus.packageRoot.appendingPathComponent(
        ".build/test-journals/\(UUID().uuidString)")
    configure(&settings)
    return AdsLoader(
        settings: settings, httpClient: http, clock: clock,
        macros: VASTMacroFiller(now: { Date(timeIntervalSince1970: 1_700_000_000) }, cacheBuster: { "12345678" }))
}

@Suite("Ads loader")
@MainActor
struct AdsLoaderTests {
    @Test func debugModeLogsToStandardErrorUnlessTheAppGaveALogger() {
        var settings = Settings()
        #expect(AdsLoader.logger(SilentLogger(), for: settings) is SilentLogger)
        settings.enableDebugMode = true
        #expect(AdsLoader.logger(SilentLogger(), for: settings) is StandardErrorLogger)
        #expect(AdsLoader.logger(RecordingLogger(), for: settings) is RecordingLogger)
    }

    @Test func loadersOnOneJournalDirectoryShareOneQueue() {
        var settings = Settings()
        settings.beaconJournalDirectory = Corpus.packageRoot.appendingPathComponent(
            ".build/test-journals/\(UUID().uuidString)")
        let first = AdsLoader(settings: settings, httpClient: InMemoryHTTPClient())
        let second = AdsLoader(settings: settings, httpClient: InMemoryHTTPClient())
        // One journal file, one writer: otherwise each would resend the other's owed beacons.
        #expect(first.beaconQueue === second.beaconQueue)
        let elsewhere = makeLoader(InMemoryHTTPClient())
        #expect(elsewhere.beaconQueue !== first.beaconQueue)
    }

    @Test func asyncLoadReturnsAManagerWithIMAShapedAds() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(
                wrapperVAST(
                    id: "w", target: "\(testBase)/inline",
                    extra:
                        "<Extensions><Extension type=\"uiSettings\"><UiHideable>1</UiHideable></Extension></Extensions>"
                )),
            "\(testBase)/inline": .body(inlineVAST(id: "the-ad")),
        ])
        let loader = makeLoader(http)
        let request = AdsRequest(adTagURL: URL(string: "\(testBase)/w")!, adDisplayContainer: nil, userContext: "ctx")
        let data = try await loader.loadAds(with: request)
        #expect(data.userContext as? String == "ctx")
        let ad = try #require(data.adsManager!.ads.first)
        #expect(ad.adID == "the-ad")
        #expect(ad.adTitle == "the-ad")
        #expect(ad.adSystem == "s")
        #expect(ad.duration == 10)
        #expect(ad.isSkippable == false && ad.skipTimeOffset == -1)
        // The ad allows a custom UI, but the app has not asked for one (initialize) yet.
        #expect(ad.isUiHideable && !ad.isUiDisabled)
        #expect(ad.isLinear)
        #expect(ad.contentType == "video/mp4")
        #expect(ad.vastMediaWidth == 640 && ad.vastMediaHeight == 360)
        #expect(ad.wrapperAdIDs == ["w"] && ad.wrapperSystems == ["w"])
        #expect(ad.adPodInfo == AdPodInfo(adPosition: 1, totalAds: 1, podIndex: 0, timeOffset: 0))
        #expect(data.adsManager!.adCuePoints.isEmpty)
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        data.adsManager!.initialize(with: rendering)
        #expect(data.adsManager!.ads.first?.isUiDisabled == true)
    }

    @Test func delegateHearsOfSuccessAndFailure() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/ok": .body(inlineVAST()), "\(testBase)/bad": .body("<VAST"),
        ])
        let loader = makeLoader(http)
        let delegate = RecordingLoaderDelegate()
        loader.delegate = delegate
        await withCheckedContinuation { continuation in
            var remaining = 2
            delegate.onEvent = {
                remaining -= 1
                if remaining == 0 { continuation.resume() }
            }
            loader.requestAds(with: AdsRequest(adTagURL: URL(string: "\(testBase)/ok")!, adDisplayContainer: nil))
            loader.requestAds(
                with: AdsRequest(adTagURL: URL(string: "\(testBase)/bad")!, adDisplayContainer: nil, userContext: 7))
        }
        #expect(delegate.loaded.count == 1)
        #expect(delegate.failed.first?.adError.code == .vastMalformedResponse)
        #expect(delegate.failed.first?.adError.type == .loadingFailed)
        #expect(delegate.failed.first?.userContext as? Int == 7)
    }

    @Test func asyncLoadThrowsTheSameErrorCode() async throws {
        let loader = makeLoader(InMemoryHTTPClient())
        await #expect(throws: AdError.self) {
            try await loader.loadAds(
                with: AdsRequest(adTagURL: URL(string: "\(testBase)/missing")!, adDisplayContainer: nil))
        }
        do {
            _ = try await loader.loadAds(
                with: AdsRequest(adTagURL: URL(string: "\(testBase)/missing")!, adDisplayContainer: nil))
        } catch {
            #expect(error.code == .vastLoadTimeout)
        }
    }

    @Test func errorURLsOfTheChainArePingedWithTheCode() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/bad")), "\(testBase)/bad": .body("<VAST"),
            "\(testBase)/err/w": .status(204, ""),
        ])
        let loader = makeLoader(http)
        _ = try? await loader.loadAds(
            with: AdsRequest(adTagURL: URL(string: "\(testBase)/w")!, adDisplayContainer: nil))
        await loader.beaconQueue.waitUntilIdle()
        #expect(http.requestedURLs.contains("\(testBase)/err/w?c=100"))
    }

    @Test func inlineResponseNeedsNoNetwork() async throws {
        let http = InMemoryHTTPClient()
        let loader = makeLoader(http)
        let data = try await loader.loadAds(
            with: AdsRequest(adsResponse: inlineVAST(id: "local"), adDisplayContainer: nil))
        #expect(data.adsManager!.ads.map(\.adID) == ["local"])
        #expect(http.requests.isEmpty)
    }

    @Test func podAdsGetTheirPositions() async throws {
        let pod = """
            <VAST version="4.2"><Ad id="a" sequence="1"><InLine><AdSystem>s</AdSystem></InLine></Ad><Ad id="b" sequence="2"><InLine><AdSystem>s</AdSystem></InLine></Ad><Ad id="c" sequence="3"><InLine><AdSystem>s</AdSystem></InLine></Ad></VAST>
            """
        let data = try await makeLoader(InMemoryHTTPClient()).loadAds(
            with: AdsRequest(adsResponse: pod, adDisplayContainer: nil))
        #expect(data.adsManager!.ads.map(\.adPodInfo.adPosition) == [1, 2, 3])
        #expect(data.adsManager!.ads.allSatisfy { $0.adPodInfo.totalAds == 3 })
    }

    @Test func vmapGivesCuePointsAndLoadsBreaksOnDemand() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        http.setRoute("http://server.com/vast.xml", .body(inlineVAST(id: "post")))
        let loader = makeLoader(http)
        let data = try await loader.loadAds(
            with: AdsRequest(adTagURL: URL(string: "\(testBase)/vmap-js/correct-vmap.xml")!, adDisplayContainer: nil))
        let manager = data.adsManager!
        #expect(manager.adCuePoints == [0, 623.125, -1])
        #expect(http.requests.count == 1)  // no break loaded yet
        let post = try #require(manager.schedule?.postrolls().first)
        let resolution = await manager.loadBreak(post)
        #expect(resolution.ads.map(\.ad.id) == ["post"])
    }

    @Test func failedBreakFiresItsErrorTracking() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        http.setRoute("http://server.com/error", .status(204, ""))
        let loader = makeLoader(http)
        let data = try await loader.loadAds(
            with: AdsRequest(adTagURL: URL(string: "\(testBase)/vmap-js/correct-vmap.xml")!, adDisplayContainer: nil))
        // The pre-roll's embedded VAST holds no ads.
        let pre = try #require(data.adsManager!.schedule?.pendingPrerolls.first)
        let resolution = await data.adsManager!.loadBreak(pre)
        #expect(resolution.error?.code == .vastEmptyResponse)
        await loader.beaconQueue.waitUntilIdle()
        #expect(http.requestedURLs.contains("http://server.com/error?303"))
    }

    @Test func contentCompleteReachesTheManagers() async throws {
        let loader = makeLoader(InMemoryHTTPClient())
        let data = try await loader.loadAds(with: AdsRequest(adsResponse: inlineVAST(), adDisplayContainer: nil))
        loader.contentComplete()
        #expect(data.adsManager!.contentCompleted)
    }
}
