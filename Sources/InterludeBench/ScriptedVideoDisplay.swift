import Foundation
import Interlude

/// A ``VideoDisplay`` that does nothing by itself: the benchmark reports
/// load, start, progress and completion to the SDK with direct calls on the
/// main actor, as AVPlayer's observers do. No clock, sleeps or yields sit
/// between two progress reports, so the CPU measured is the SDK's.
@MainActor
final class ScriptedVideoDisplay: VideoDisplay {
    weak var delegate: (any VideoDisplayDelegate)?
    var volume: Float = 1
    private(set) var currentMediaTime: TimeInterval = 0
    var totalMediaTime: TimeInterval = 0
    var bufferedMediaTime: TimeInterval { totalMediaTime }
    private(set) var isPlaying = false
    private(set) var loadedURL: URL?

    func load(_ url: URL, subtitles: [[String: String]]?) {
        loadedURL = url
        currentMediaTime = 0
    }
    func play() { isPlaying = true }
    func pause() { isPlaying = false }
    func reset() {
        loadedURL = nil
        isPlaying = false
    }
    func seek(to time: TimeInterval) { currentMediaTime = time }

    /// Plays the loaded media to its end: loaded, started, a progress report
    /// every `interval` seconds of media, complete.
    func playToEnd(interval: TimeInterval) {
        guard loadedURL != nil else { return }
        delegate?.videoDisplayDidLoad(self)
        delegate?.videoDisplayDidStart(self)
        while currentMediaTime < totalMediaTime, loadedURL != nil {
            currentMediaTime = min(totalMediaTime, currentMediaTime + interval)
            delegate?.videoDisplay(self, didProgressToMediaTime: currentMediaTime, totalTime: totalMediaTime)
        }
        if loadedURL != nil { delegate?.videoDisplayDidComplete(self) }
    }
}
