import Foundation
import InterludeHLS

/// Where pod-serving sessions live: streams, their break decisions, the
/// events of those decisions (verified or not) and the outbox of
/// server-side beacons. Every method is safe from any thread and, for
/// stores shared between processes (``SQLiteSessionStore``), from any
/// process: decisions are written once, a verification succeeds once.
public protocol SessionStore: Sendable {
    /// Stores a newly registered stream.
    func insert(_ stream: PodStream) throws(StoreError)
    /// The stream with this ID (expired ones included, until purged).
    func stream(id: String) throws(StoreError) -> PodStream?

    /// The VOD plan of a stream, once set.
    func vodPlan(streamID: String) throws(StoreError) -> PodVODPlan?
    /// Sets the VOD plan unless one is set; returns the stored plan.
    func setVODPlan(_ plan: PodVODPlan, streamID: String) throws(StoreError) -> PodVODPlan

    /// Where the decision of a break stands.
    func decisionState(streamID: String, breakID: String) throws(StoreError) -> PodDecisionState
    /// Every written decision of a stream, in the order they were made.
    func decisions(streamID: String) throws(StoreError) -> [PodBreakDecision]
    /// Marks a break's decision as being written by the caller. True when the
    /// caller now owns it (no decision yet, or a pending one older than
    /// `staleAfter` whose writer is presumed gone); false when it is written
    /// or another writer holds it.
    func claimDecision(
        streamID: String, breakID: String, breakDigest: String, at now: Date, staleAfter: TimeInterval
    ) throws(StoreError) -> Bool
    /// Writes a claimed decision and its events, applies verifications that
    /// arrived while it was pending, and returns the stored decision (an
    /// earlier one if another writer finished first).
    func completeDecision(_ decision: PodBreakDecision, at now: Date) throws(StoreError) -> PodBreakDecision
    /// ``completeDecision(_:at:)`` for many decisions in one transaction
    /// (claimed or not: each is written only where no decision is written
    /// yet), returning the stored decision of each, in order.
    func completeDecisions(_ decisions: [PodBreakDecision], at now: Date) throws(StoreError) -> [PodBreakDecision]

    /// Verifies one event of `streamID` (whose break has digest
    /// `breakDigest`) and, the first time, queues its beacons.
    func verify(eventID: String, streamID: String, breakDigest: String, at now: Date) throws(StoreError)
        -> PodVerificationOutcome
    /// Verifies each of `batch` in order, all in one transaction where the
    /// store has them (a commit costs far more than one event's update), and
    /// returns one outcome per verification; a duplicate later in the batch
    /// sees the first as verified. An error fails the whole batch.
    func verify(_ batch: [PodVerification]) throws(StoreError) -> [PodVerificationOutcome]

    /// Leases the due events with beacons left to send, up to `limit`
    /// events, to `owner`, and returns their unfinished beacons.
    func claimDueBeacons(owner: String, at now: Date, leaseFor: TimeInterval, limit: Int) throws(StoreError)
        -> [PodOutboxBeacon]
    /// Records what the attempts came to (delivered, to retry after a
    /// delay, abandoned) and gives back their events' leases.
    func recordBeaconResults(_ results: [PodBeaconResult], at now: Date) throws(StoreError)
    /// Gives up `owner`'s leases (at shutdown), so another sender takes them at once.
    func releaseBeacons(owner: String) throws(StoreError)
    /// When the next unsent beacon is due; nil when none is waiting.
    func nextBeaconDue() throws(StoreError) -> Date?

    /// The live stitcher's state of one rendition of a stream (the VTP's
    /// ``LiveStitchTimeline``), nil before that rendition's first reload.
    func liveStitchState(streamID: String, rendition: String) throws(StoreError) -> LiveStitchState?
    /// Every rendition's live stitch state of a stream, by rendition.
    func liveStitchStates(streamID: String) throws(StoreError) -> [String: LiveStitchState]
    /// Merges `state` into the stored state of the rendition
    /// (``LiveStitchState/merge(_:)``, so two processes' writes reconcile)
    /// and returns what is stored now.
    @discardableResult
    func mergeLiveStitchState(_ state: LiveStitchState, streamID: String, rendition: String) throws(StoreError)
        -> LiveStitchState
    /// Merges each update as ``mergeLiveStitchState(_:streamID:rendition:)``
    /// does, all in one transaction where the store has them.
    func mergeLiveStitchStates(_ updates: [LiveStitchUpdate]) throws(StoreError)

    /// Verified events and beacon progress of a stream.
    func activity(streamID: String) throws(StoreError) -> PodStreamActivity
    /// The most recently registered streams first, up to `limit`, each with
    /// a summary of its activity (the web console's list).
    func recentStreams(limit: Int) throws(StoreError) -> [PodStreamSummary]
    /// The last beacon failure of each event of a stream that had one.
    func beaconFailures(streamID: String) throws(StoreError) -> [String: String]
    /// Deletes streams that expired before `cutoff` and have no beacon left
    /// to send, with everything of theirs. Returns how many.
    func purge(expiredBefore cutoff: Date) throws(StoreError) -> Int
    /// Closes the store; later calls fail.
    func close()
}

/// Where the decision of a break stands.
public enum PodDecisionState: Sendable, Hashable {
    /// Nobody has started it.
    case none
    /// A writer claimed it at this time and has not finished.
    case pending(claimedAt: Date)
    /// Written.
    case ready(PodBreakDecision)
}

extension SessionStore {
    /// One ``verify(eventID:streamID:breakDigest:at:)`` after another, for
    /// stores without a transaction to share.
    public func verify(_ batch: [PodVerification]) throws(StoreError) -> [PodVerificationOutcome] {
        var outcomes: [PodVerificationOutcome] = []
        outcomes.reserveCapacity(batch.count)
        for item in batch {
            outcomes.append(
                try verify(eventID: item.eventID, streamID: item.streamID, breakDigest: item.breakDigest, at: item.at))
        }
        return outcomes
    }

    /// One ``mergeLiveStitchState(_:streamID:rendition:)`` after another,
    /// for stores without a transaction to share.
    public func mergeLiveStitchStates(_ updates: [LiveStitchUpdate]) throws(StoreError) {
        for update in updates {
            try mergeLiveStitchState(update.state, streamID: update.streamID, rendition: update.rendition)
        }
    }
}

/// A live stitch state to merge into the stored state of one rendition of
/// a stream (``SessionStore/mergeLiveStitchStates(_:)``).
public struct LiveStitchUpdate: Sendable, Hashable {
    /// The stream.
    public var streamID: String
    /// The rendition's state key (profile and request options).
    public var rendition: String
    /// What the stitcher reached.
    public var state: LiveStitchState

    /// An update of `rendition` of `streamID` to `state`.
    public init(streamID: String, rendition: String, state: LiveStitchState) {
        self.streamID = streamID
        self.rendition = rendition
        self.state = state
    }
}

/// One media verification to record: the event as the client sent its ID,
/// its stream, the digest of the event's break, and when it arrived.
public struct PodVerification: Sendable, Hashable {
    /// The event ID as the client sent it.
    public var eventID: String
    /// The stream the event belongs to.
    public var streamID: String
    /// The digest of the event's break (``PodEventID``'s break part).
    public var breakDigest: String
    /// When the verification arrived.
    public var at: Date

    /// A verification of `eventID` on `streamID` at `at`.
    public init(eventID: String, streamID: String, breakDigest: String, at: Date) {
        self.eventID = eventID
        self.streamID = streamID
        self.breakDigest = breakDigest
        self.at = at
    }
}

/// What a media verification did.
public enum PodVerificationOutcome: Sendable, Hashable {
    /// First verification: beacons queued (HTTP 204).
    case verified
    /// The break's decision is still being written: recorded, applied when it
    /// is (HTTP 202).
    case accepted
    /// Verified before (HTTP 404).
    case alreadyVerified
    /// No such event on this stream (HTTP 404).
    case unknown
}

/// One server-side beacon of a verified event, leased to a sender.
public struct PodOutboxBeacon: Sendable, Hashable {
    /// The stream (the collector session).
    public var streamID: String
    /// The verified event that queued it.
    public var eventID: String
    /// Its place among the event's tracking URLs.
    public var index: Int
    /// The tracking URL template (``DocumentTemplate/baseURLSentinel`` for
    /// this server, VAST macros unfilled).
    public var url: String
    /// Sent as `Idempotency-Key` (`{event_id}-{index}`), so a retry after a
    /// lost answer is stored once.
    public var idempotencyKey: String
    /// When the event was verified (`[TIMESTAMP]`).
    public var eventTime: Date
    /// Milliseconds into the ad (`[ADPLAYHEAD]`).
    public var adPlayhead: Int
    /// Failed rounds of its event before this one.
    public var attempts: Int

    public init(
        streamID: String, eventID: String, index: Int, url: String, idempotencyKey: String, eventTime: Date,
        adPlayhead: Int, attempts: Int
    ) {
        self.streamID = streamID
        self.eventID = eventID
        self.index = index
        self.url = url
        self.idempotencyKey = idempotencyKey
        self.eventTime = eventTime
        self.adPlayhead = adPlayhead
        self.attempts = attempts
    }
}

/// What one attempt at a beacon came to.
public enum PodBeaconOutcome: Sendable, Hashable {
    /// Answered 2xx or 3xx.
    case delivered
    /// Failed in a way that may pass: try again after this many seconds.
    case retry(after: Double, reason: String)
    /// Will never succeed (or the last attempt failed): give up.
    case abandon(reason: String)
}

/// An attempt's outcome for one beacon of an event.
public struct PodBeaconResult: Sendable, Hashable {
    public var eventID: String
    public var index: Int
    public var outcome: PodBeaconOutcome

    public init(eventID: String, index: Int, outcome: PodBeaconOutcome) {
        self.eventID = eventID
        self.index = index
        self.outcome = outcome
    }
}

/// Verified events and beacon progress of one stream.
public struct PodStreamActivity: Sendable, Hashable {
    /// Event ID → when it was verified.
    public var verifiedEvents: [String: Date]
    /// Event ID → beacons delivered.
    public var beaconsSent: [String: Int]
    /// Event ID → beacons still waiting.
    public var beaconsPending: [String: Int]
    /// Event ID → beacons given up on after the last retry.
    public var beaconsAbandoned: [String: Int]
    /// Rounds in which one of the stream's beacons failed.
    public var failedAttempts: Int

    public init(
        verifiedEvents: [String: Date] = [:], beaconsSent: [String: Int] = [:], beaconsPending: [String: Int] = [:],
        beaconsAbandoned: [String: Int] = [:], failedAttempts: Int = 0
    ) {
        self.verifiedEvents = verifiedEvents
        self.beaconsSent = beaconsSent
        self.beaconsPending = beaconsPending
        self.beaconsAbandoned = beaconsAbandoned
        self.failedAttempts = failedAttempts
    }
}
