#if canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import Interlude

    /// A ``VideoDisplay`` on `AVPlayer`: the app's player plays the ad, or
    /// the pod-serving stream with its ads stitched in. Reports load, start,
    /// pause, resume, progress (4 Hz for ads, 5 Hz for streams), buffering
    /// (the player waiting for media, the item's loaded ranges, and playing
    /// on), completion, errors (401 when the file is missing, 405 otherwise)
    /// and ID3 timed metadata with its presentation time to the SDK. IMA's
    /// `IMAAVPlayerVideoDisplay`.
    @MainActor
    public final class AVPlayerVideoDisplay: NSObject, VideoDisplay {
        public let player: AVPlayer
        public weak var delegate: (any VideoDisplayDelegate)?

        private var started = false
        private var statusObservation: NSKeyValueObservation?
        private var bufferObservations: [NSKeyValueObservation] = []
        private var isBuffering = false
        private var notificationTokens: [NSObjectProtocol] = []
        private var timeObserver: Any?
        private var metadataOutput: AVPlayerItemMetadataOutput?
        /// Seconds between progress reports: 0.25 for ads, 0.2 for streams (DAI.md §1).
        private var progressInterval: TimeInterval = 0.25

        public init(player: AVPlayer = AVPlayer()) {
            self.player = player
            super.init()
        }

        /// A display on the app's own player, for streams. IMA's `initWithAVPlayer:`.
        public convenience init(avPlayer: AVPlayer) {
            self.init(player: avPlayer)
        }

        public var volume: Float {
            get { player.volume }
            set { player.volume = newValue }
        }

        public var currentMediaTime: TimeInterval { player.currentTime().seconds.finiteOrZero }
        public var totalMediaTime: TimeInterval { player.currentItem?.duration.seconds.finiteOrZero ?? 0 }
        public var bufferedMediaTime: TimeInterval {
            guard let range = player.currentItem?.loadedTimeRanges.last?.timeRangeValue else { return 0 }
            return (range.start + range.duration).seconds.finiteOrZero
        }
        public var isPlaying: Bool { player.rate != 0 }

        public func load(_ url: URL, subtitles: [[String: String]]?) {
            prepare(url, progressInterval: 0.25)
        }

        /// Loads a stream into the app's player (its subtitles come from the
        /// HLS playlist; `subtitles` is not used). IMA's `loadStream:withSubtitles:`.
        public func loadStream(_ url: URL, subtitles: [[String: String]]?) {
            prepare(url, progressInterval: 0.2)
        }

        /// Seeks the stream exactly (zero tolerance: a snapback must land on
        /// the break's first frame, not the nearest keyframe before it). IMA's `seekStreamToTime:`.
        public func seekStream(to time: TimeInterval) {
            guard time.isFinite else { return }
            player.seek(
                to: CMTime(seconds: max(0, time), preferredTimescale: 600), toleranceBefore: .zero,
                toleranceAfter: .zero)
        }

        private func prepare(_ url: URL, progressInterval: TimeInterval) {
            detach()
            self.progressInterval = progressInterval
            started = false
            let item = AVPlayerItem(url: url)
            statusObservation = item.observe(\.status, options: [.new]) { [weak self] item, _ in
                let status = item.status
                let error = item.error
                Task { @MainActor in self?.statusChanged(status, error: error) }
            }
            // KVO may call on any thread, and separate Tasks need not run in
            // the order the changes happened: each handler re-reads the
            // current state on the main actor instead of trusting a captured value.
            bufferObservations = [
                player.observe(\.timeControlStatus, options: [.new]) { [weak self] _, _ in
                    Task { @MainActor in self?.timeControlStatusChanged() }
                },
                item.observe(\.loadedTimeRanges, options: [.new]) { [weak self] _, _ in
                    Task { @MainActor in self?.loadedRangesChanged() }
                },
            ]
            let center = NotificationCenter.default
            notificationTokens.append(
                center.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: .main) {
                    [weak self] _ in
                    MainActor.assumeIsolated { self?.finished() }
                })
            notificationTokens.append(
                center.addObserver(forName: .AVPlayerItemFailedToPlayToEndTime, object: item, queue: .main) {
                    [weak self] note in
                    let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? Error
                    MainActor.assumeIsolated { self?.failed(error) }
                })
            let output = AVPlayerItemMetadataOutput(identifiers: nil)
            output.setDelegate(self, queue: .main)
            item.add(output)
            metadataOutput = output
            player.replaceCurrentItem(with: item)
        }

        public func play() {
            player.play()
            if started {
                delegate?.videoDisplayDidResume(self)
                return
            }
            started = true
            let interval = CMTime(seconds: progressInterval, preferredTimescale: 600)
            timeObserver = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { [weak self] time in
                MainActor.assumeIsolated {
                    guard let self, self.isPlaying else { return }
                    self.delegate?.videoDisplay(
                        self, didProgressToMediaTime: time.seconds.finiteOrZero, totalTime: self.totalMediaTime)
                }
            }
            delegate?.videoDisplayDidStart(self)
        }

        public func pause() {
            player.pause()
            delegate?.videoDisplayDidPause(self)
        }

        public func reset() {
            player.pause()
            detach()
            player.replaceCurrentItem(with: nil)
            started = false
        }

        public func seek(to time: TimeInterval) {
            player.seek(to: CMTime(seconds: time, preferredTimescale: 600))
        }

        private func detach() {
            statusObservation?.invalidate()
            statusObservation = nil
            for observation in bufferObservations { observation.invalidate() }
            bufferObservations.removeAll()
            isBuffering = false
            for token in notificationTokens { NotificationCenter.default.removeObserver(token) }
            notificationTokens.removeAll()
            if let timeObserver { player.removeTimeObserver(timeObserver) }
            timeObserver = nil
            metadataOutput = nil
        }

        private func statusChanged(_ status: AVPlayerItem.Status, error: Error?) {
            switch status {
            case .readyToPlay: delegate?.videoDisplayDidLoad(self)
            case .failed: failed(error)
            default: break
            }
        }

        /// Buffering is the player waiting to play for want of media
        /// (`waitingToPlayAtSpecifiedRate` for stalls or buffering-rate
        /// checks); it ends when the player plays again.
        private func timeControlStatusChanged() {
            guard started, player.currentItem != nil else { return }
            switch player.timeControlStatus {
            case .waitingToPlayAtSpecifiedRate:
                let reason = player.reasonForWaitingToPlay
                guard !isBuffering, reason == .toMinimizeStalls || reason == .evaluatingBufferingRate else { return }
                // At the end of the item there is nothing left to wait for.
                if totalMediaTime > 0, currentMediaTime >= totalMediaTime - 0.1 { return }
                isBuffering = true
                delegate?.videoDisplayDidStartBuffering(self)
            case .playing:
                guard isBuffering else { return }
                isBuffering = false
                delegate?.videoDisplayIsPlaybackReady(self)
            case .paused:
                // A pause (the app's or the SDK's) is not buffering.
                isBuffering = false
            @unknown default:
                break
            }
        }

        private func loadedRangesChanged() {
            guard player.currentItem != nil else { return }
            delegate?.videoDisplay(self, didBufferToMediaTime: bufferedMediaTime)
        }

        private func finished() {
            delegate?.videoDisplay(self, didProgressToMediaTime: totalMediaTime, totalTime: totalMediaTime)
            delegate?.videoDisplayDidComplete(self)
        }

        private func failed(_ error: Error?) {
            let nsError = error as NSError?
            let missing =
                nsError?.code == NSURLErrorFileDoesNotExist || nsError?.code == NSURLErrorResourceUnavailable
                || nsError?.code == NSURLErrorBadServerResponse
            delegate?.videoDisplay(
                self,
                didReceiveError: missing
                    ? VideoDisplayError.mediaNotFound
                    : VideoDisplayError.cannotDisplay(error?.localizedDescription ?? "unknown"))
        }
    }

    extension AVPlayerVideoDisplay: AVPlayerItemMetadataOutputPushDelegate {
        nonisolated public func metadataOutput(
            _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
            from track: AVPlayerItemTrack?
        ) {
            // One report per item (ID3 frame) at its group's presentation
            // time, as HLSStreamDisplay reports each frame: a group is a
            // whole ID3 tag, which may hold several TXXX frames (an event ID
            // beside the origin's own), and one dictionary for the group
            // would keep only the last of them. A segment's worth of groups
            // may arrive at once.
            var reports: [([String: String], TimeInterval)] = []
            for group in groups {
                let start = group.timeRange.start
                guard start.isNumeric else { continue }
                for item in group.items {
                    guard let identifier = item.identifier?.rawValue, let value = item.stringValue else { continue }
                    // `id3/TXXX` → `TXXX`, as IMA's delegate names ID3 frames.
                    let key = identifier.hasPrefix("id3/") ? String(identifier.dropFirst(4)) : identifier
                    reports.append(([key: value], start.seconds))
                }
            }
            guard !reports.isEmpty else { return }
            MainActor.assumeIsolated {
                for (values, time) in reports {
                    self.delegate?.videoDisplay(self, didReceiveTimedMetadata: values, presentationTime: time)
                }
            }
        }
    }

    /// The content `AVPlayer`'s position, for VMAP scheduling. IMA's `IMAAVPlayerContentPlayhead`.
    @MainActor
    public final class AVPlayerContentPlayhead: ContentPlayhead {
        public let player: AVPlayer
        public init(player: AVPlayer) { self.player = player }
        public var currentTime: TimeInterval { player.currentTime().seconds.finiteOrZero }
    }

    extension Double {
        fileprivate var finiteOrZero: Double { isFinite ? self : 0 }
    }
#endif
