import Foundation

extension PodServingService {
    /// `GET {media_verification_url}{event_id}`: 204 the first time (the
    /// event's beacons are queued), 202 while the break's decision is being
    /// written (applied when it is), 404 for anything unknown, expired or
    /// verified before. Never retried by clients, so it never waits.
    func verify(streamID: String, eventID: String) throws(HTTPError) -> HTTPResponse {
        let stream = try self.stream(streamID, expiredStatus: 404)
        guard let parsed = PodEventID.parse(eventID, streamID: stream.id) else {
            throw .notFound("no event '\(eventID.prefix(64))' on stream \(stream.id)")
        }
        let outcome = try Self.storeCall { () throws(StoreError) in
            try store.verify(eventID: eventID, streamID: stream.id, breakDigest: parsed.breakDigest, at: now())
        }
        switch outcome {
        case .verified:
            sender?.wake()
            return .noContent
        case .accepted:
            return HTTPResponse(status: 202)
        case .alreadyVerified:
            throw .notFound("event \(eventID) was verified already")
        case .unknown:
            throw .notFound("no event '\(eventID)' on stream \(stream.id)")
        }
    }
}
