import Foundation

extension PodServingService {
    /// `GET {media_verification_url}{event_id}`: 204 the first time (the
    /// event's beacons are queued), 202 while the break's decision is being
    /// written (applied when it is), 404 for anything unknown, expired or
    /// verified before. Never retried by clients, so it never waits on
    /// another request: the verification joins the writer's next batch and
    /// the answer goes out once that batch is committed (never before the
    /// row is stored). An event this process saw verified is answered 404
    /// from memory: verified is for good, so that holds whichever process
    /// verified it.
    func verify(streamID: String, eventID: String) throws(HTTPError) -> HTTPResponse {
        let stream = try self.stream(streamID, expiredStatus: 404)
        guard let parsed = PodEventID.parse(eventID, streamID: stream.id) else {
            throw .notFound("no event '\(eventID.prefix(64))' on stream \(stream.id)")
        }
        let key = Self.verifiedKey(streamID: stream.id, eventID: eventID)
        if verifiedEvents[key] != nil { throw Self.verifiedBefore(eventID) }
        let verification = PodVerification(
            eventID: eventID, streamID: stream.id, breakDigest: parsed.breakDigest, at: now())
        return .deferred(completing: { [self] complete in
            verificationWriter.submit(verification) { [self] result in
                complete(answer(result, key: key, eventID: eventID, streamID: verification.streamID))
            }
        })
    }

    /// The answer to one verification's outcome; remembers events now verified for good.
    private func answer(
        _ result: Result<PodVerificationOutcome, StoreError>, key: String, eventID: String, streamID: String
    ) -> HTTPResponse {
        switch result {
        case .success(.verified):
            verifiedEvents.store(true, for: key)
            sender?.wake()
            return .noContent
        case .success(.accepted):
            verifiedEvents.store(true, for: key)
            return HTTPResponse(status: 202)
        case .success(.alreadyVerified):
            verifiedEvents.store(true, for: key)
            return Self.verifiedBefore(eventID).response
        case .success(.unknown):
            return HTTPError.notFound("no event '\(eventID)' on stream \(streamID)").response
        case .failure(let error):
            return HTTPError(status: 503, message: "session store: \(error.message)").response
        }
    }

    private static func verifiedBefore(_ eventID: String) -> HTTPError {
        .notFound("event \(eventID) was verified already")
    }

    static func verifiedKey(streamID: String, eventID: String) -> String { streamID + "/" + eventID }
}
