import Foundation
import Interlude

extension HLSPlaybackState {
    /// Asks for the next segment the playhead will need, when none is on
    /// its way and it starts within the forward buffer.
    mutating func requestNextSegment(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        guard segmentRequest == nil, timeline.hasLoaded else { return }
        switch phase {
        case .ready, .playing, .paused: break
        case .idle, .loading, .ended, .failed: return
        }
        guard
            let index = timeline.nextDownload(
                from: playhead, before: playhead + configuration.forwardBufferDuration)
        else { return }
        let segment = timeline.segments[index]
        requestSegment(segment, attempt: 0, notBefore: now, into: &effects)
    }

    private mutating func requestSegment(
        _ segment: HLSTimelineSegment, attempt: Int, notBefore: TimeInterval, into effects: inout [HLSPlaybackEffect]
    ) {
        let id = makeID()
        segmentRequest = SegmentRequest(id: id, sequence: segment.sequence, attempt: attempt)
        effects.append(
            .fetchSegment(
                HLSFetch(
                    id: id, url: segment.url, byteRange: segment.byteRange, timeout: configuration.segmentTimeout,
                    notBefore: notBefore, readsContents: !segment.isEncrypted)))
    }

    /// The answer to segment request `id`; a successful one carries the
    /// segment's contents, read by the shell.
    mutating func segmentFetched(
        id: UInt64, result: Result<HLSFetchResponse, HTTPClientError>, now: TimeInterval,
        into effects: inout [HLSPlaybackEffect]
    ) {
        guard let request = segmentRequest, request.id == id, phase != .failed, phase != .idle else { return }
        segmentRequest = nil
        guard let index = timeline.index(ofSequence: request.sequence) else {
            // Dropped from the timeline meanwhile (played past): on to the next.
            requestNextSegment(now: now, into: &effects)
            return
        }
        let segment = timeline.segments[index]
        var problem: HLSStreamError?
        var downloaded: HLSFetchResponse?
        switch result {
        case .failure(let error):
            problem = HLSStreamError.transport(
                error, what: "segment \(segment.sequence)", url: segment.url, timeout: configuration.segmentTimeout)
        case .success(let response):
            counters.bytesDownloaded += response.byteCount
            if (200..<300).contains(response.statusCode) {
                downloaded = response
            } else {
                problem = HLSStreamError.status(
                    response.statusCode, what: "segment \(segment.sequence)", url: segment.url, isLoadedURL: false)
            }
        }
        if let problem {
            segmentFailed(problem, index: index, request: request, now: now, into: &effects)
            return
        }
        guard let downloaded else { return }
        counters.segmentsDownloaded += 1
        let contents = segment.isEncrypted ? HLSSegmentContents.unread : (downloaded.contents ?? .unread)
        if contents.issueCount > 0 {
            counters.transportStreamIssues += contents.issueCount
            effects.append(
                .log(
                    .warning,
                    "segment \(segment.sequence) (\(segment.url.absoluteString)): skipped \(contents.issueCount) damaged parts, the first: \(contents.firstIssue ?? "?")"
                ))
        }
        let metadata = HLSPresentationTime.schedule(contents, of: segment, anchors: &ptsAnchors)
        timeline.markBuffered(index, metadata: metadata)
        enqueue(metadata.filter { $0.time >= playhead - HLSTime.epsilon })
        segmentArrived(now: now, into: &effects)
    }

    /// A segment that failed: retried when the failure is transient, then
    /// skipped or fatal as ``HLSStreamDisplay/Configuration/failedSegmentPolicy`` says.
    private mutating func segmentFailed(
        _ problem: HLSStreamError, index: Int, request: SegmentRequest, now: TimeInterval,
        into effects: inout [HLSPlaybackEffect]
    ) {
        if problem.isTransient, request.attempt < configuration.retryLimit {
            counters.retries += 1
            let delay = configuration.retryDelay * Double(request.attempt + 1)
            effects.append(.log(.warning, "\(problem.message); retrying in \(HLSSeconds.text(delay)) s"))
            requestSegment(
                timeline.segments[index], attempt: request.attempt + 1, notBefore: now + delay, into: &effects)
            return
        }
        switch configuration.failedSegmentPolicy {
        case .fail:
            fail(problem, into: &effects)
        case .skip:
            counters.segmentsSkipped += 1
            timeline.markSkipped(index)
            effects.append(.log(.warning, "\(problem.message); played over as a gap"))
            segmentArrived(now: now, into: &effects)
        }
    }

    /// The buffer grew (a segment arrived or was given up): tell the
    /// delegate, play on if playback was waiting, fetch the next one.
    private mutating func segmentArrived(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        effects.append(.report(.bufferedTo(bufferedEnd)))
        if isBuffering { resumeIfBuffered(now: now, into: &effects) }
        guard phase != .failed, phase != .ended else { return }
        requestNextSegment(now: now, into: &effects)
    }
}
