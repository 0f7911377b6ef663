import Foundation
internal import InterludeFormatting
import InterludeHLS

/// A pod-serving stream's timeline for the console, to scale: content,
/// breaks, ads and slate as spans; each timed-metadata event where it
/// plays, with its verification and what its server-side beacons did; each
/// beacon the collector received from them. A pure function of what the
/// store holds.
///
/// VOD streams are drawn in stream time (content with the pods stitched
/// in, as the VTP's playlists lay it out); live streams in wall-clock
/// seconds since registration, each break where the origin's
/// PROGRAM-DATE-TIME put it (or, for a stream no VTP stitched, where its
/// decision was made).
struct StreamTimeline: Encodable, Sendable, Hashable {
    struct Span: Encodable, Sendable, Hashable {
        /// `content`, `break`, `ad` or `slate`.
        var kind: String
        /// Seconds on the axis.
        var start: Double
        var duration: Double
        var label: String?
        var breakID: String?
        var adID: String?
    }

    struct Event: Encodable, Sendable, Hashable {
        var id: String
        /// `start`, `firstquartile`, `midpoint`, `thirdquartile`, `complete`.
        var type: String
        var adID: String
        var breakID: String
        /// Seconds on the axis.
        var at: Double
        var verifiedAt: String?
        var beaconsSent: Int
        var beaconsPending: Int
        var beaconsAbandoned: Int
        /// `pending` (not verified), `verified`, or `failed` (a beacon was given up on).
        var state: String
        /// The last beacon failure of the event, if one failed.
        var error: String?
    }

    /// A beacon the collector received for one of the stream's events.
    struct Arrival: Encodable, Sendable, Hashable {
        var id: Int64
        /// The event that fired it; nil when no event of the stream names it.
        var eventID: String?
        var ad: String
        var event: String
        var receivedAt: String
        /// Seconds on the axis: its event's place.
        var at: Double?
    }

    /// `stream` (VOD) or `wall` (live).
    var axis: String
    /// Seconds the axis covers (from 0).
    var duration: Double
    /// Where now is on a wall axis.
    var now: Double?
    var spans: [Span]
    var events: [Event]
    var beacons: [Arrival]

    /// What the timeline is made from.
    struct Input: Sendable {
        var stream: PodStream
        var plan: PodVODPlan?
        var decisions: [PodBreakDecision]
        var activity: PodStreamActivity
        /// Event ID → the last beacon failure.
        var failures: [String: String]
        /// The VTP's live stitch states (any rendition), for live break dates.
        var liveStates: [LiveStitchState]
        /// Beacons the collector stored for the stream (its ID is their session).
        var beacons: [Beacon]
        /// The VOD content's duration when the plan does not say.
        var contentDuration: Double?
        var now: Date
    }

    init(_ input: Input) {
        let placed: [(decision: PodBreakDecision, start: Double)]
        var spans: [Span] = []
        if input.stream.kind == .vod {
            axis = "stream"
            now = nil
            (placed, spans, duration) = Self.vodLayout(input)
        } else {
            axis = "wall"
            let origin = input.stream.createdAt
            let starts = Self.liveBreakDates(input.liveStates)
            placed = input.decisions.map { decision in
                let date = starts[decision.breakID] ?? decision.decidedAt
                return (decision, max(0, date.timeIntervalSince(origin)))
            }
            .sorted { $0.start < $1.start }
            let lastVerified = input.activity.verifiedEvents.values.max() ?? origin
            let busyUntil = max(
                placed.map { $0.start + Double($0.decision.duration) / 1000 }.max() ?? 0,
                lastVerified.timeIntervalSince(origin))
            let elapsed = input.now.timeIntervalSince(origin)
            // Up to now while the stream is busy; an idle stream's axis stops two minutes after its last activity.
            duration = max(1, busyUntil, min(elapsed, busyUntil + 120))
            now = elapsed <= duration ? elapsed : nil
            var cursor = 0.0
            for (decision, start) in placed {
                if start > cursor { spans.append(Span(kind: "content", start: cursor, duration: start - cursor)) }
                cursor = max(cursor, start + Double(decision.duration) / 1000)
            }
            if duration > cursor { spans.append(Span(kind: "content", start: cursor, duration: duration - cursor)) }
        }
        var events: [Event] = []
        for (decision, start) in placed {
            spans += Self.podSpans(decision, at: start)
            for ad in decision.ads {
                for event in ad.events {
                    events.append(
                        Self.event(
                            event, ad: ad, breakID: decision.breakID,
                            at: start + Double(ad.offset + event.offset) / 1000, input: input))
                }
            }
        }
        self.spans = spans
        self.events = events
        let eventsByBeacon = Self.eventsByBeacon(placed.map(\.decision))
        let placeOfEvent = Dictionary(events.map { ($0.id, $0.at) }, uniquingKeysWith: { first, _ in first })
        beacons = input.beacons.map { beacon in
            let eventID = eventsByBeacon[BeaconKey(ad: beacon.ad, event: beacon.event)]
            return Arrival(
                id: beacon.id, eventID: eventID, ad: beacon.ad, event: beacon.event, receivedAt: beacon.receivedAt,
                at: eventID.flatMap { placeOfEvent[$0] })
        }
    }

    /// VOD: content cut at each planned break, the break's pod inserted there.
    private static func vodLayout(_ input: Input) -> (
        placed: [(decision: PodBreakDecision, start: Double)], spans: [Span], duration: Double
    ) {
        let decisions = Dictionary(input.decisions.map { ($0.breakID, $0) }, uniquingKeysWith: { first, _ in first })
        let breaks = (input.plan?.breaks ?? []).sorted { $0.contentOffset < $1.contentOffset }
        let contentDuration = max(
            input.plan?.contentDuration ?? input.contentDuration ?? 0, breaks.last?.contentOffset ?? 0)
        var placed: [(decision: PodBreakDecision, start: Double)] = []
        var spans: [Span] = []
        var streamTime = 0.0
        var contentTime = 0.0
        for plannedBreak in breaks {
            guard let decision = decisions[plannedBreak.breakID] else { continue }
            let offset = min(max(plannedBreak.contentOffset, contentTime), contentDuration)
            if offset > contentTime {
                spans.append(Span(kind: "content", start: streamTime, duration: offset - contentTime))
                streamTime += offset - contentTime
                contentTime = offset
            }
            placed.append((decision, streamTime))
            streamTime += Double(decision.duration) / 1000
        }
        if contentDuration > contentTime {
            spans.append(Span(kind: "content", start: streamTime, duration: contentDuration - contentTime))
            streamTime += contentDuration - contentTime
        }
        return (placed, spans, max(1, streamTime))
    }

    /// The break's span, its ads', and its slate's.
    private static func podSpans(_ decision: PodBreakDecision, at start: Double) -> [Span] {
        var spans = [
            Span(
                kind: "break", start: start, duration: Double(decision.duration) / 1000, label: decision.breakID,
                breakID: decision.breakID)
        ]
        for ad in decision.ads {
            spans.append(
                Span(
                    kind: "ad", start: start + Double(ad.offset) / 1000, duration: Double(ad.duration) / 1000,
                    label: ad.title, breakID: decision.breakID, adID: ad.adID))
        }
        if decision.slateDuration > 0 {
            spans.append(
                Span(
                    kind: "slate", start: start + Double(decision.duration - decision.slateDuration) / 1000,
                    duration: Double(decision.slateDuration) / 1000, label: "slate", breakID: decision.breakID))
        }
        return spans
    }

    private static func event(_ event: PodAdEvent, ad: PodAd, breakID: String, at: Double, input: Input) -> Event {
        let verified = input.activity.verifiedEvents[event.id]
        let abandoned = input.activity.beaconsAbandoned[event.id] ?? 0
        let state = verified == nil ? "pending" : abandoned > 0 ? "failed" : "verified"
        return Event(
            id: event.id, type: event.type.rawValue, adID: ad.adID, breakID: breakID, at: at,
            verifiedAt: verified.map { ISO8601Timestamp.string(from: $0) },
            beaconsSent: input.activity.beaconsSent[event.id] ?? 0,
            beaconsPending: input.activity.beaconsPending[event.id] ?? 0, beaconsAbandoned: abandoned, state: state,
            error: input.failures[event.id])
    }

    /// Live breaks' start dates by decision break ID, from the VTP's records.
    private static func liveBreakDates(_ states: [LiveStitchState]) -> [String: Date] {
        var dates: [String: Date] = [:]
        for state in states {
            for record in state.breaks {
                guard let date = record.request.startDate else { continue }
                dates[VTPBreakIdentity.podIdentifier(breakID: record.request.breakID).breakID] = date
            }
        }
        return dates
    }

    struct BeaconKey: Hashable {
        var ad: String
        var event: String
    }

    /// Which event fires each collector beacon: the `/track/{session}/{ad}/{event}`
    /// URLs of each event's tracking, by their ad and event.
    static func eventsByBeacon(_ decisions: [PodBreakDecision]) -> [BeaconKey: String] {
        var map: [BeaconKey: String] = [:]
        for decision in decisions {
            for ad in decision.ads {
                for event in ad.events {
                    for url in ad.beacons[event.type.rawValue] ?? [] {
                        guard let key = trackKey(url) else { continue }
                        map[key] = map[key] ?? event.id
                    }
                }
            }
        }
        return map
    }

    /// The ad and event of a collector tracking URL; nil for another URL.
    static func trackKey(_ url: String) -> BeaconKey? {
        guard let range = url.range(of: "/track/") else { return nil }
        let path = url[range.upperBound...].prefix { $0 != "?" && $0 != "#" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let ad = String(parts[1]).removingPercentEncoding ?? String(parts[1])
        let event = String(parts[2]).removingPercentEncoding ?? String(parts[2])
        return BeaconKey(ad: ad, event: event)
    }
}
