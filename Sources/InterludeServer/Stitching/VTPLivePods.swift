import Foundation
import InterludeHLS

extension HLSError.Code {
    /// Pod serving could not answer for a break (its store is down): the
    /// reload fails and nothing is recorded, so the next one tries again.
    static let podServingUnavailable = HLSError.Code("podServingUnavailable")
}

/// The viewer's pods for a live timeline, from pod serving's decisions (made
/// on the first reload that sees a break, stored, the same ever after):
/// the pod's segments in one profile, pointing at pod serving's segment
/// route with the stream ID so each carries the viewer's timed metadata.
///
/// A 5xx from pod serving fails the reload (``failure``); a 4xx leaves the
/// break its content, for good. Not shared between threads: one per reload.
final class VTPLivePods: LiveStitchPodProvider {
    let service: VTPService
    let library: MediaLibrary
    let stream: PodStream
    /// The ladder profile of the rendition.
    let profile: String
    /// When set, breaks starting at any other origin sequence number keep
    /// their content (the fallback when a new break's pod cannot be spliced).
    let podsOnlyFor: Set<UInt64>?
    /// Why pod serving could not answer, when it could not.
    private(set) var failure: HTTPError?

    init(
        service: VTPService, library: MediaLibrary, stream: PodStream, profile: String,
        podsOnlyFor: Set<UInt64>? = nil
    ) {
        self.service = service
        self.library = library
        self.stream = stream
        self.profile = profile
        self.podsOnlyFor = podsOnlyFor
    }

    var maxPodDuration: Int { service.pods.podCatalog.podRules.maxPodDuration }

    /// The pod request of a break; nil for a break under a second. A
    /// network that checks tokens gets one the VTP signs for the viewer, good
    /// until the stream expires: it goes on with the pod's manifest and
    /// segment URIs, as a VTP in front of Google's pod serving passes its own.
    func podRequest(for request: LiveBreakRequest) -> LivePodRequest? {
        guard var pod = Self.podRequest(for: request, stream: stream, maxPodDuration: maxPodDuration) else {
            return nil
        }
        guard let key = service.pods.podCatalog.network(code: stream.networkCode)?.authKeyBytes else { return pod }
        let identifier: (name: String, value: String)
        switch pod.identifier {
        case .pod(let number): identifier = ("pod_id", String(number))
        case .adBreakID(let id): identifier = ("ad_break_id", id)
        }
        pod.authToken = PodAuthToken.sign(
            [
                "custom_asset_key": pod.customAssetKey, "network_code": pod.networkCode,
                identifier.name: identifier.value, "pd": String(pod.duration),
                "exp": String(Int64(stream.expiresAt.timeIntervalSince1970.rounded(.down))),
            ], key: key)
        return pod
    }

    /// The pod request `stream`'s reloads make for a break (deciding ahead makes the same).
    static func podRequest(for request: LiveBreakRequest, stream: PodStream, maxPodDuration: Int) -> LivePodRequest? {
        guard let duration = VTPBreakIdentity.podDuration(request, maximum: maxPodDuration) else { return nil }
        return LivePodRequest(
            networkCode: stream.networkCode, customAssetKey: stream.customAssetKey ?? "",
            identifier: VTPBreakIdentity.podIdentifier(breakID: request.breakID), streamID: stream.id,
            duration: duration)
    }

    func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
        if let podsOnlyFor, !podsOnlyFor.contains(request.originStartSequence) { return nil }
        guard let podRequest = podRequest(for: request) else { return nil }
        let key = "\(stream.id)\n\(podRequest.identifier.pathComponent)\n\(podRequest.duration)\n\(profile)"
        if let cached = service.livePods[key] { return cached }
        let layout: PodLayout
        do {
            let decision = try service.pods.livePodDecision(podRequest, stream: stream)
            layout = try service.pods.layout(decision, profile: profile)
        } catch {
            guard error.status >= 500 else { return nil }
            failure = error
            throw HLSError(.podServingUnavailable, error.message)
        }
        guard !layout.entries.isEmpty else { return nil }
        let directory = podRequest.segmentDirectory(profile: profile)
        let query = podRequest.query
        let segments = layout.entries.enumerated().map { index, entry in
            (
                segment: AdSegment(
                    uri: "\(directory)\(index).ts?\(query)", duration: Double(entry.milliseconds) / 1000),
                startsRun: entry.discontinuity
            )
        }
        let pod = AdPod(runs: segments, id: podRequest.identifier.breakID)
        // Decisions never change: the pod of a break is the same on every reload.
        service.livePods.store(pod, for: key)
        return pod
    }

    func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] {
        let milliseconds = Int((duration * 1000).rounded())
        guard milliseconds > 0, milliseconds <= VTPSlate.maxMilliseconds else { return [] }
        return VTPSlate.segments(library: library, profile: profile, milliseconds: milliseconds)
    }

    func interstitialAssetURI(for request: LiveBreakRequest) throws(HLSError) -> String? {
        guard let podRequest = podRequest(for: request) else { return nil }
        // The query carries the token a network that checks them needs.
        return "/linear/pods/v1/hls/network/\(PodServingLinks.encode(podRequest.networkCode))/custom_asset/"
            + "\(PodServingLinks.encode(podRequest.customAssetKey))/\(podRequest.identifier.pathComponent).m3u8?"
            + podRequest.query
    }
}
