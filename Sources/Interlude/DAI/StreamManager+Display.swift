import Foundation

extension StreamManager {
    /// Timed metadata rejected (late, malformed, flooding) is logged as a
    /// `log` event this many times, then once per hundred.
    static let loggedRejections = 20

    // MARK: - Display reports

    func displayLoaded() {
        guard !playingBackup else { return }
        displayHasLoaded = true
        // VOD: `streamLoaded` needs the timeline too (apps map bookmarks with it on that event).
        guard isLive || timelineReady else { return }
        finishStreamLoad()
    }

    /// `streamLoaded` once; a VOD stream then plays.
    func finishStreamLoad() {
        guard !streamLoadedSent, !destroyed else { return }
        streamLoadedSent = true
        // The app may seek to a bookmark here (`streamTime(forContentTime:)`), before playback.
        emit(AdEvent(type: .streamLoaded))
        if !isLive, thirdPartyStreamRequested, !destroyed { display?.play() }
        // An app that called play() right after loadStream (the seed's live flow) started it already.
        if isStreamPlaying { sendStreamStarted() }
    }

    func displayStarted() {
        isStreamPlaying = true
        guard !playingBackup, streamLoadedSent else { return }
        sendStreamStarted()
    }

    /// `streamStarted`, once, and never before `streamLoaded`.
    func sendStreamStarted() {
        guard !streamStartedSent, !destroyed else { return }
        streamStartedSent = true
        emit(AdEvent(type: .streamStarted))
    }

    func displayPaused() {
        isStreamPlaying = false
        if let ad = adPlaying { emit(AdEvent(type: .pause, ad: ad)) }
    }

    func displayResumed() {
        isStreamPlaying = true
        if let ad = adPlaying { emit(AdEvent(type: .resume, ad: ad)) }
    }

    func displayTapped() {
        guard !playingBackup else { return }
        emit(AdEvent(type: .tapped, ad: adPlaying))
    }

    func displayCompleted() {
        isStreamPlaying = false
        guard !playingBackup else { return }
        effects.removeAll(keepingCapacity: true)
        timeline.streamEnded(into: &effects)
        perform()
    }

    func displayFailed(_ error: Error) {
        guard !playingBackup else { return }
        isStreamPlaying = false
        let message = (error as? VideoDisplayError).map { "\($0)" } ?? "\(error)"
        report(AdError(type: .playingFailed, code: .videoPlayError, message: "the stream could not play: \(message)"))
        playBackupIfAsked()
    }

    /// One progress report: the timeline moves, and due live events fire.
    func displayProgressed(to streamTime: TimeInterval) {
        // Before its stream loads, a VOD display reports whatever the app played in it.
        guard !playingBackup, !destroyed, isLive || streamLoadedSent else { return }
        // A display that plays without saying it loaded or started: its progress says both.
        if !streamLoadedSent { finishStreamLoad() }
        if !streamStartedSent {
            isStreamPlaying = true
            sendStreamStarted()
        }
        // Empty after every perform(): a report costs no array call for it.
        if !effects.isEmpty { effects.removeAll(keepingCapacity: true) }
        let clock = self.clock
        timeline.playheadMoved(to: streamTime, reading: { clock.now }, into: &effects)
        if usesTimedMetadata { fireDueEvents(upTo: streamTime) }
        perform()
    }

    /// The ad playing now, if any (not slate).
    var adPlaying: Ad? {
        guard let slot = timeline.currentSlot, !slot.isSlate else { return nil }
        return slot.ad
    }

    // MARK: - Timed metadata

    func timedMetadataReceived(_ values: [String: String], presentationTime: TimeInterval?) {
        guard !destroyed, !playingBackup else { return }
        let ids = StreamEventID.ids(in: values)
        guard !ids.isEmpty else { return }
        guard usesTimedMetadata else {
            if !ignoredVODMetadata {
                ignoredVODMetadata = true
                emitLog("timed metadata ignored: VOD ad events come from the stream's timeline")
            }
            return
        }
        // A display without presentation times delivers at the frame: now.
        let time = presentationTime ?? timeline.playhead ?? display?.currentMediaTime ?? 0
        for id in ids {
            switch metadataQueue.insert(id, at: time, playhead: timeline.playhead) {
            case .queued:
                if metadata.tag(forEventID: id) == nil { fetchForUnknownID(id) }
            case .duplicate:
                services.logger.log(.debug, "timed metadata \(id) at \(time) s already queued")
            case .rejected(let reason):
                rejectedMetadataCount += 1
                if rejectedMetadataCount <= Self.loggedRejections || rejectedMetadataCount % 100 == 0 {
                    emitLog("timed metadata \(id) ignored: \(reason)")
                }
            }
        }
        // Delivered at or after its time (as AVPlayer does): fire now, not at the next tick.
        if let playhead = timeline.playhead, metadataQueue.nextTime.map({ $0 <= playhead }) == true {
            effects.removeAll(keepingCapacity: true)
            fireDueEvents(upTo: playhead)
            perform()
        }
    }

    /// Fires the live events the playhead has reached, in order; events
    /// waiting on a metadata fetch they started hold the line. `released`:
    /// the events a fetch that just ended was holding.
    func fireDueEvents(upTo playhead: TimeInterval, released: Set<String> = []) {
        guard !metadataQueue.isEmpty else { return }
        let inFlight = fetchTask != nil
        let due = metadataQueue.popDue(upTo: playhead) { [heldEventIDs] id in
            inFlight && heldEventIDs.contains(id)
        }
        for entry in due.stale {
            guard heldEventIDs.contains(entry.eventID) || released.contains(entry.eventID) else {
                effects.append(
                    .log("timed metadata \(entry.eventID) at \(entry.time) s dropped: the playhead passed it"))
                continue
            }
            // Played past while its metadata was fetched: too late for the app's
            // events, but the ad played, so the server still hears of it (its
            // verification fires the server-side beacons).
            heldEventIDs.remove(entry.eventID)
            effects.append(
                .log(
                    "timed metadata \(entry.eventID) at \(entry.time) s came due while its metadata was fetched: verified late, without events"
                ))
            if metadata.tag(forEventID: entry.eventID)?.kind != .progress { effects.append(.verify(entry.eventID)) }
        }
        for entry in due.entries {
            heldEventIDs.remove(entry.eventID)
            timeline.liveEvent(
                entry.eventID, tag: metadata.tag(forEventID: entry.eventID), metadata: metadata, at: entry.time,
                into: &effects)
        }
    }

    // MARK: - Backup

    /// Loads and plays the request's backup stream when it asked for that.
    func playBackupIfAsked() {
        guard let request, request.playsBackupStreamOnFailure, let backup = request.backupStreamURL,
            !playingBackup, !destroyed
        else { return }
        playingBackup = true
        pollTask?.cancel()
        pollTask = nil
        emitLog("playing the backup stream \(backup.absoluteString)")
        timeline.hideUI(into: &effects)
        perform()
        display?.loadStream(backup, subtitles: nil)
        display?.play()
    }
}

/// Receives the display's events for the stream manager without making it
/// a public `VideoDisplayDelegate`, and without keeping it alive.
@MainActor
final class StreamDisplayProxy: VideoDisplayDelegate {
    weak var manager: StreamManager?

    func videoDisplayDidLoad(_ display: any VideoDisplay) { manager?.displayLoaded() }
    func videoDisplayDidStart(_ display: any VideoDisplay) { manager?.displayStarted() }
    func videoDisplayDidPause(_ display: any VideoDisplay) { manager?.displayPaused() }
    func videoDisplayDidResume(_ display: any VideoDisplay) { manager?.displayResumed() }
    func videoDisplayDidComplete(_ display: any VideoDisplay) { manager?.displayCompleted() }
    func videoDisplayDidClick(_ display: any VideoDisplay) { manager?.displayTapped() }
    func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error) { manager?.displayFailed(error) }
    func videoDisplay(
        _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval
    ) {
        manager?.displayProgressed(to: mediaTime)
    }
    func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String]) {
        manager?.timedMetadataReceived(metadata, presentationTime: nil)
    }
    func videoDisplay(
        _ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String],
        presentationTime: TimeInterval
    ) {
        manager?.timedMetadataReceived(metadata, presentationTime: presentationTime)
    }
}
