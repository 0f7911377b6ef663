import Foundation

/// The pod-serving API behind the routes: registration, decisions made once
/// per break, metadata, verification and server-side beaconing. Everything
/// durable is in the ``SessionStore``; the caches here only hold what never
/// changes once stored (streams and written decisions), so any process on
/// the same store answers any request the same way.
final class PodServingService: Sendable {
    let catalog: Catalog
    let store: any SessionStore
    let decisioner: PodDecisioner
    let media: any PodMediaSource
    let now: @Sendable () -> Date
    let sender: BeaconSender?
    private let streams = BoundedCache<String, PodStream>(limit: 200_000)
    /// Written decisions without their documents (``PodBreakDecision/withoutDocuments()``):
    /// a break's VAST runs to tens of kilobytes, and only the store keeps it.
    let decisions: BoundedCache<String, PodBreakDecision>
    /// Pod playlists as sent, by stream, pod, `pd` and profile: written once, they never change.
    let renderedPlaylists = BoundedCache<String, [UInt8]>(limit: 100_000)
    /// Pod layouts by stream, break and profile.
    let layouts = BoundedCache<String, PodLayout>(limit: 50_000)
    /// Records verifications in batches (a group commit) off the HTTP threads.
    let verificationWriter: VerificationWriter
    /// Events (`stream/event`) this process saw verified, accepted or
    /// verified before: every later verification of them is a 404 for good.
    let verifiedEvents = BoundedCache<String, Bool>(limit: 200_000)

    /// A pending decision older than this is taken over: its writer is gone.
    static let staleClaim: TimeInterval = 5
    /// How long a request waits for another server to finish a decision.
    static let decisionWait: TimeInterval = 3

    /// Decisions held in memory at most, by default (least recently used forgotten first).
    static let decisionCacheLimit = 50_000

    init(
        catalog: Catalog, store: any SessionStore, media: any PodMediaSource, now: @escaping @Sendable () -> Date,
        sender: BeaconSender?, decisionCacheLimit: Int = PodServingService.decisionCacheLimit
    ) {
        decisions = BoundedCache(limit: decisionCacheLimit)
        self.catalog = catalog
        self.store = store
        self.media = media
        self.now = now
        self.sender = sender
        verificationWriter = VerificationWriter(store: store)
        decisioner = PodDecisioner(catalog: catalog) { creative in media.adDuration(creativeID: creative.id) }
    }

    var podCatalog: PodServingCatalog { catalog.podServing }

    /// Writes the verifications queued, stops the beacon sender (letting
    /// sends in flight finish) and closes the store.
    func shutdown() {
        verificationWriter.stop()
        sender?.stop()
        store.close()
    }

    // MARK: Streams

    /// The stream `id`, unexpired. 404 for unknown (and malformed) IDs, 410
    /// for expired ones (`expiredStatus` lets verification answer 404
    /// instead; nil accepts expired streams).
    func stream(_ id: String, expiredStatus: Int? = 410) throws(HTTPError) -> PodStream {
        guard PodStream.isValidID(id) else { throw .notFound("no stream '\(id.prefix(64))'") }
        let stream: PodStream
        if let cached = streams[id] {
            stream = cached
        } else {
            guard let stored = try Self.storeCall({ () throws(StoreError) in try store.stream(id: id) }) else {
                throw .notFound("no stream '\(id)'")
            }
            streams.store(stored, for: id)
            stream = stored
        }
        if let expiredStatus, stream.isExpired(at: now()) {
            throw HTTPError(
                status: expiredStatus, message: "stream \(id) expired at \(PodTimeFormat.iso8601(stream.expiresAt))")
        }
        return stream
    }

    /// Stores a new stream and remembers it.
    func insert(_ stream: PodStream) throws(HTTPError) {
        try Self.storeCall { () throws(StoreError) in try store.insert(stream) }
        streams.store(stream, for: stream.id)
    }

    // MARK: Decisions

    /// The decision of `breakID`: the stored one, or this process's, made and
    /// stored now, without its documents (``PodBreakDecision/withoutDocuments()``;
    /// `writtenDecisions(of:)` has them). Two servers asked at once both
    /// compute the same decision; the claim lets one write it while the other waits for it.
    func decision(
        for stream: PodStream, breakID: String, requestedDuration: Int, slate: PodDecisioner.Slate
    ) throws(HTTPError) -> PodBreakDecision {
        let key = Self.decisionKey(streamID: stream.id, breakID: breakID)
        if let cached = decisions[key] { return cached }
        let digest = PodEventID.breakDigest(streamID: stream.id, breakID: breakID)
        let deadline = Date().addingTimeInterval(Self.decisionWait)
        while true {
            let state = try Self.storeCall { () throws(StoreError) in
                try store.decisionState(streamID: stream.id, breakID: breakID)
            }
            if case .ready(let decision) = state {
                let served = decision.withoutDocuments()
                decisions.store(served, for: key)
                return served
            }
            let claimed = try Self.storeCall { () throws(StoreError) in
                try store.claimDecision(
                    streamID: stream.id, breakID: breakID, breakDigest: digest, at: now(), staleAfter: Self.staleClaim)
            }
            if claimed {
                let made = decisioner.decide(
                    stream: stream, breakID: breakID, requestedDuration: requestedDuration, slate: slate,
                    at: now())
                let stored = try Self.storeCall { () throws(StoreError) in
                    try store.completeDecision(made, at: now())
                }.withoutDocuments()
                decisions.store(stored, for: key)
                return stored
            }
            guard Date() < deadline else {
                throw HTTPError(status: 503, message: "the decision of \(breakID) is still being written; try again")
            }
            // Another server is writing it (milliseconds of work): look again shortly.
            usleep(5_000)
        }
    }

    /// The key of a break's decision in ``decisions``.
    static func decisionKey(streamID: String, breakID: String) -> String { "\(streamID)\n\(breakID)" }

    /// Every written decision of a stream, documents included, from the store
    /// (the cache takes them without their documents).
    func writtenDecisions(of stream: PodStream) throws(HTTPError) -> [PodBreakDecision] {
        let stored = try Self.storeCall { () throws(StoreError) in try store.decisions(streamID: stream.id) }
        for decision in stored {
            decisions.store(
                decision.withoutDocuments(), for: Self.decisionKey(streamID: stream.id, breakID: decision.breakID))
        }
        return stored
    }

    /// A store call, its failure a 503 (the data may be fine; the disk or lock is not).
    static func storeCall<T>(_ body: () throws(StoreError) -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch {
            throw HTTPError(status: 503, message: "session store: \(error.message)")
        }
    }
}
