import Foundation

@testable import Interlude

/// A display that does only what the test tells it: it records commands
/// and reports load, start, progress and completion when asked, with any
/// values (a display that never starts, or reports NaN, is one call away).
@MainActor
final class ManualVideoDisplay: VideoDisplay {
    weak var delegate: (any VideoDisplayDelegate)?
    var volume: Float = 1
    var currentMediaTime: TimeInterval = 0
    var totalMediaTime: TimeInterval = 0
    var bufferedMediaTime: TimeInterval = 0
    private(set) var isPlaying = false
    private(set) var commands: [String] = []

    func load(_ url: URL, subtitles: [[String: String]]?) { commands.append("load \(url.absoluteString)") }
    func play() {
        commands.append("play")
        isPlaying = true
    }
    func pause() {
        commands.append("pause")
        isPlaying = false
    }
    func reset() {
        commands.append("reset")
        isPlaying = false
    }
    func seek(to time: TimeInterval) { commands.append("seek \(time)") }

    func reportLoaded() { delegate?.videoDisplayDidLoad(self) }
    func reportStarted() { delegate?.videoDisplayDidStart(self) }
    func reportProgress(_ mediaTime: TimeInterval, of totalTime: TimeInterval) {
        currentMediaTime = mediaTime
        totalMediaTime = totalTime
        delegate?.videoDisplay(self, didProgressToMediaTime: mediaTime, totalTime: totalTime)
    }
    func reportCompleted() { delegate?.videoDisplayDidComplete(self) }
}
