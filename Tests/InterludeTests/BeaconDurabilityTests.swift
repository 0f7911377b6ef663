import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// A display that does nothing by itself: the test reports playback with
/// direct calls, as AVPlayer's observers do, so no suspension point lies
/// between an event and the check that follows it.
@MainActor
private final class DirectDisplay: VideoDisplay {
    weak var delegate: (any VideoDisplayDelegate)?
    var volume: Float = 1
    var currentMediaTime: TimeInterval = 0
    var totalMediaTime: TimeInterval = 10
    var bufferedMediaTime: TimeInterval { totalMediaTime }
    var isPlaying = false
    private(set) var loadedURL: URL?
    func load(_ url: URL, subtitles: [[String: String]]?) { loadedURL = url }
    func play() { isPlaying = true }
    func pause() { isPlaying = false }
    func reset() { loadedURL = nil }
    func seek(to time: TimeInterval) { currentMediaTime = time }
}

/// An app can be killed right after an ad event: the event's beacons must
/// already be in the journal when the manager's main-actor turn ends.
@Suite("Beacons are journaled in the turn of their event")
@MainActor
struct BeaconDurabilityTests {
    @Test func theImpressionIsInTheJournalFileWhenTheFirstFrameCallReturns() async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything()
        let loader = makeLoader(http, clock: clock)
        let display = DirectDisplay()
        let request = AdsRequest(
            adsResponse: inlineVAST(id: "durable", impression: "http://127.0.0.1:9/imp/durable"),
            adDisplayContainer: AdDisplayContainer(videoDisplay: display))
        let manager = try #require(try await loader.loadAds(with: request).adsManager)
        manager.initialize(with: AdsRenderingSettings())
        manager.start()
        for _ in 0..<10_000 where display.loadedURL == nil { await Task.yield() }
        #expect(display.loadedURL != nil)
        let journal = try #require(loader.settings.beaconJournalDirectory).appendingPathComponent("beacons.journal")

        display.delegate?.videoDisplayDidLoad(display)
        display.delegate?.videoDisplayDidStart(display)
        display.delegate?.videoDisplay(display, didProgressToMediaTime: 0.25, totalTime: 10)
        // Read at once: no await since the first frame, as if the app were killed here.
        let text = try String(contentsOf: journal, encoding: .utf8)
        #expect(text.contains("imp/durable"))
        #expect(text.contains("start/durable"))
        await loader.beaconQueue.shutDown()
    }
}
