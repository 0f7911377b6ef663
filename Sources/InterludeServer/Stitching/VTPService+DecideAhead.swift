import Foundation
import InterludeHLS

extension VTPService {
    /// Decides `job`'s break for the live streams `streamIDs` (those still
    /// unexpired), on the decide-ahead thread. A failure (the store busy or
    /// down) is left to the reloads, which decide for themselves as before.
    static func decideAhead(_ job: VTPDecideAhead.Job, for streamIDs: [String], pods: PodServingService) {
        let now = pods.now()
        let maxPodDuration = pods.podCatalog.podRules.maxPodDuration
        var requests: [(pod: LivePodRequest, stream: PodStream)] = []
        requests.reserveCapacity(streamIDs.count)
        for id in streamIDs {
            guard let stream = try? pods.stream(id, expiredStatus: nil), stream.kind == .live,
                !stream.isExpired(at: now),
                let pod = VTPLivePods.podRequest(for: job.request, stream: stream, maxPodDuration: maxPodDuration)
            else { continue }
            requests.append((pod, stream))
        }
        _ = try? pods.decideLivePodsAhead(requests)
    }

    /// The breaks whose start `prepared` holds, as a viewer's timeline asks
    /// pod serving for them: what deciding ahead may decide without a
    /// viewer's state (a break whose start has left the window is asked for
    /// as each viewer's state recorded it).
    func breaksStarting(in prepared: PreparedOriginWindow) -> [LiveBreakRequest] {
        let recorder = BreakRequestRecorder()
        var timeline = LiveStitchTimeline(options: timelineOptions(VTPRequestOptions()), state: LiveStitchState())
        _ = try? timeline.stitch(prepared, pods: recorder)
        let first = prepared.playlist.segments.first?.mediaSequence ?? prepared.playlist.mediaSequence
        return recorder.requests.filter { $0.originStartSequence >= first }
    }
}

/// Records the breaks a timeline asks pods for, and gives none.
private final class BreakRequestRecorder: LiveStitchPodProvider {
    private(set) var requests: [LiveBreakRequest] = []

    func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
        if !requests.contains(request) { requests.append(request) }
        return nil
    }

    func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] { [] }
}

extension VTPService {
    /// Prepares the current window of each local channel in `channels` (in
    /// its first profile: breaks are the same in every rendition), which
    /// announces the breaks that appeared since the last look. External
    /// origins are fetched per reload and not polled here.
    func prepareWindows(of channels: [String]) {
        guard let profile = library.profiles.first?.id else { return }
        for id in channels {
            guard let channel = library.liveChannel(id) else { continue }
            _ = try? liveWindow(channel, profile: profile)
        }
    }
}
