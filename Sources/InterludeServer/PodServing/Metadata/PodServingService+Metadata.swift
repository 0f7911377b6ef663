import Foundation

extension PodServingService {
    /// The metadata answer of a stream: live tags/ads/ad_breaks, or the VOD
    /// timeline (202 with `Retry-After` until the VTP has asked for pods).
    func metadata(streamID: String, baseURL: String) throws(HTTPError) -> HTTPResponse {
        let stream = try self.stream(streamID)
        switch stream.kind {
        case .live:
            var response = HTTPResponse.json(
                LivePodMetadata(decisions: try writtenDecisions(of: stream), baseURL: baseURL))
            response.headers.set("Cache-Control", "no-store")
            return response
        case .vod:
            guard let plan = try Self.storeCall({ () throws(StoreError) in try store.vodPlan(streamID: stream.id) })
            else {
                var pending = HTTPResponse.json(
                    [
                        "status": "pending",
                        "message": "the VTP has not asked for this stream's pods yet; poll again",
                    ], status: 202)
                pending.headers.set("Retry-After", "1")
                return pending
            }
            let timeline = try vodTimeline(stream, plan: plan)
            var response = HTTPResponse.json(
                VODPodMetadata(stream: stream, plan: plan, timeline: timeline, baseURL: baseURL))
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }
}
