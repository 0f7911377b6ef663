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
    ///
    /// ``reset()`` removes everything it added to the player (observers, the
    /// metadata output); the managers call it when they are destroyed. An
    /// app that drops a display it drove itself, on a player that lives on,
    /// calls it first.
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
        /// The item loaded last, and what was last reported of its status.
        private var item: AVPlayerItem?
        private var reportedStatus: AVPlayerItem.Status = .unknown
        /// Counts loads and resets. Each callback carries the value of its
        /// registration and is dropped when it differs: a notification, a
        /// KVO change or a progress tick already queued on the main queue
        /// still runs after its observer is removed, and must not reach the
        /// next ad (or the next stream) as its own.
        private var generation = 0
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
        /// The end of the loaded range the playhead is in (after a seek
        /// there may be several, in no promised order), else of the one
        /// that reaches furthest.
        public var bufferedMediaTime: TimeInterval {
            let ranges = player.currentItem?.loadedTimeRanges.map(\.timeRangeValue) ?? []
            let now = player.currentTime()
            guard let range = ranges.first(where: { $0.containsTime(now) }) ?? ranges.max(by: { $0.end < $1.end })
            else { return 0 }
            return range.end.seconds.finiteOrZero
        }
        public var isPlaying: Bool { player.rate != 0 }
        /// How much of the player's view is on screen, 0 to 1, for the ads'
        /// `<ViewableImpression>`: the app, which knows its layout, sets it
        /// (nil, the default, leaves viewability undetermined).
        public var visibleFraction: Double?

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
            self.item = item
            let generation = self.generation
            // KVO may call on any thread, and separate Tasks need not run in
            // the order the changes happened: each handler re-reads the
            // current state on the main actor instead of trusting a captured
            // value (nor reads the item off the main actor).
            statusObservation = item.observe(\.status, options: [.new]) { [weak self] _, _ in
                Task { @MainActor in self?.statusChanged(generation: generation) }
            }
            bufferObservations = [
                player.observe(\.timeControlStatus, options: [.new]) { [weak self] _, _ in
                    Task { @MainActor in self?.timeControlStatusChanged(generation: generation) }
                },
                item.observe(\.loadedTimeRanges, options: [.new]) { [weak self] _, _ in
                    Task { @MainActor in self?.loadedRangesChanged(generation: generation) }
                },
            ]
            let center = NotificationCenter.default
            notificationTokens.append(
                center.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main) {
                    [weak self] _ in
                    MainActor.assumeIsolated {
                        guard let self, self.generation == generation else { return }
                        self.finished()
                    }
                })
            notificationTokens.append(
                center.addObserver(
                    forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: .main
                ) { [weak self] note in
                    let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? Error
                    MainActor.assumeIsolated {
                        guard let self, self.generation == generation else { return }
                        self.failed(error)
                    }
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
            let generation = self.generation
            timeObserver = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { [weak self] time in
                MainActor.assumeIsolated {
                    guard let self, self.generation == generation, self.isPlaying else { return }
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
            guard time.isFinite else { return }
            player.seek(to: CMTime(seconds: max(0, time), preferredTimescale: 600))
        }

        private func detach() {
            generation &+= 1
            statusObservation?.invalidate()
            statusObservation = nil
            for observation in bufferObservations { observation.invalidate() }
            bufferObservations.removeAll()
            isBuffering = false
            for token in notificationTokens { NotificationCenter.default.removeObserver(token) }
            notificationTokens.removeAll()
            if let timeObserver { player.removeTimeObserver(timeObserver) }
            timeObserver = nil
            if let metadataOutput {
                // A batch already handed to the main queue is dropped by identity (see the delegate).
                metadataOutput.setDelegate(nil, queue: nil)
                item?.remove(metadataOutput)
            }
            metadataOutput = nil
            item = nil
            reportedStatus = .unknown
        }

        /// Reports the loaded item's status once per change: ready is a
        /// load, failed an error.
        private func statusChanged(generation: Int) {
            guard generation == self.generation, let item, item.status != reportedStatus else { return }
            reportedStatus = item.status
            switch item.status {
            case .readyToPlay: delegate?.videoDisplayDidLoad(self)
            case .failed: failed(item.error)
            default: break
            }
        }

        /// Buffering is the player waiting to play for want of media
        /// (`waitingToPlayAtSpecifiedRate` for stalls or buffering-rate
        /// checks); it ends when the player plays again.
        private func timeControlStatusChanged(generation: Int) {
            guard generation == self.generation, started, player.currentItem != nil else { return }
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

        private func loadedRangesChanged(generation: Int) {
            guard generation == self.generation, player.currentItem != nil else { return }
            delegate?.videoDisplay(self, didBufferToMediaTime: bufferedMediaTime)
        }

        private func finished() {
            delegate?.videoDisplay(self, didProgressToMediaTime: totalMediaTime, totalTime: totalMediaTime)
            delegate?.videoDisplayDidComplete(self)
        }

        private func failed(_ error: Error?) {
            let missing = Self.isMissingMedia(error) || Self.errorLogSaysMissing(item)
            delegate?.videoDisplay(
                self,
                didReceiveError: missing
                    ? VideoDisplayError.mediaNotFound
                    : VideoDisplayError.cannotDisplay(error?.localizedDescription ?? "unknown"))
        }

        /// True when the error, or one it wraps, says the media is not there
        /// (VAST 401, not 405). AVFoundation reports an HTTP 404 as its own
        /// error with CoreMedia's -12938 beneath it (in CoreMediaErrorDomain
        /// or as an OSStatus), so domains are checked and the chain walked.
        /// The URL loading system's generic codes count only as the deepest
        /// error: above a status of their own they say nothing of which.
        private static func isMissingMedia(_ error: Error?) -> Bool {
            var next = error.map { $0 as NSError }
            var depth = 0
            while let current = next, depth < 8 {
                switch (current.domain, current.code) {
                case ("CoreMediaErrorDomain", -12938), (NSOSStatusErrorDomain, -12938),
                    (NSURLErrorDomain, NSURLErrorFileDoesNotExist), (NSCocoaErrorDomain, NSFileReadNoSuchFileError),
                    (NSCocoaErrorDomain, NSFileNoSuchFileError), (NSPOSIXErrorDomain, Int(ENOENT)):
                    return true
                default:
                    break
                }
                next = current.userInfo[NSUnderlyingErrorKey] as? NSError
                depth += 1
                if next == nil {
                    return current.domain == NSURLErrorDomain
                        && (current.code == NSURLErrorResourceUnavailable
                            || current.code == NSURLErrorBadServerResponse)
                }
            }
            return false
        }

        /// True when the item's error log ends with an HTTP 404 or 410: as
        /// a status code, as CoreMedia's -12938, or in the comment
        /// (`HTTP 404: File Not Found`).
        private static func errorLogSaysMissing(_ item: AVPlayerItem?) -> Bool {
            guard let event = item?.errorLog()?.events.last else { return false }
            if event.errorStatusCode == 404 || event.errorStatusCode == 410 { return true }
            if event.errorDomain == "CoreMediaErrorDomain", event.errorStatusCode == -12938 { return true }
            let comment = event.errorComment ?? ""
            return comment.hasPrefix("HTTP 404") || comment.hasPrefix("HTTP 410")
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
            let batch = reports
            let outputID = ObjectIdentifier(output)
            MainActor.assumeIsolated {
                // Delivered on the main queue; one queued before a reset or the next load is not this item's.
                guard let current = self.metadataOutput, ObjectIdentifier(current) == outputID else { return }
                for (values, time) in batch {
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
