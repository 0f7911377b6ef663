import Foundation
import InterludeHLS
import Testing

@testable import InterludeServer

/// The console's timeline as a pure function of stored stream state.
@Suite struct StreamTimelineTests {
    static let registered = Date(timeIntervalSince1970: 1_800_000_000)

    static func stream(_ kind: PodStream.Kind) -> PodStream {
        PodStream(
            id: "0b6c3e64-3b0f-4e8e-9d59-0d7b2a9c1f10", kind: kind, networkCode: "interlude",
            customAssetKey: kind == .live ? "interlude-live" : nil, targeting: [:], createdAt: registered,
            expiresAt: registered.addingTimeInterval(3600))
    }

    /// A pod of one 10 s ad with a start and a complete event, then `slate` ms of slate.
    static func decision(_ breakID: String, slate: Int = 0, decidedAt: Date = registered) -> PodBreakDecision {
        let ad = PodAd(
            position: 1, adID: "\(breakID)_ad1", creativeID: "alpha", title: "Alpha", advertiser: "A",
            clickThrough: "http://127.0.0.1/click", duration: 10_000, offset: 0,
            events: [
                PodAdEvent(type: .start, id: "\(breakID)-start", offset: 0),
                PodAdEvent(type: .complete, id: "\(breakID)-complete", offset: 9_967),
            ], vast: "",
            beacons: [
                "start": [
                    "http://{base}/track/s/\(breakID)_ad1/impression", "http://{base}/track/s/\(breakID)_ad1/start?x=1",
                ],
                "complete": ["http://{base}/track/s/\(breakID)_ad1/complete"],
            ])
        return PodBreakDecision(
            streamID: stream(.live).id, breakID: breakID, breakDigest: "", requestedDuration: 10_000 + slate,
            duration: 10_000 + slate, slateDuration: slate, ads: [ad], targeting: [:], decidedAt: decidedAt)
    }

    static func input(
        _ stream: PodStream, decisions: [PodBreakDecision], plan: PodVODPlan? = nil,
        activity: PodStreamActivity = PodStreamActivity(), failures: [String: String] = [:],
        states: [LiveStitchState] = [], beacons: [Beacon] = [], now: Date
    ) -> StreamTimeline.Input {
        StreamTimeline.Input(
            stream: stream, plan: plan, decisions: decisions, activity: activity, failures: failures,
            liveStates: states, beacons: beacons, contentDuration: nil, now: now)
    }

    /// A live stitch state recording one break that starts at `start` (its PROGRAM-DATE-TIME).
    static func state(breakID: String, start: Date) throws -> LiveStitchState {
        let request = LiveBreakRequest(breakID: breakID, originStartSequence: 10, startDate: start, plannedDuration: 20)
        let requestJSON = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let json = """
            {"settled": {"throughSequence": 0, "sequenceOffset": 0, "discontinuityOffset": 0},
             "breaks": [{"request": \(requestJSON), "isReplaced": true, "originDiscontinuityBase": 0,
                         "contentIsEncrypted": false, "slateSegmentDuration": 4, "sourceMarkers": [],
                         "anchor": {"sequence": 10, "elapsed": 0}}]}
            """
        return try JSONDecoder().decode(LiveStitchState.self, from: Data(json.utf8))
    }

    @Test func aLiveBreakIsDrawnWhereTheOriginsProgramDateTimePutsIt() throws {
        // Decided 5 s after registration, ahead of the break, which the origin starts at 40 s.
        let breakID = VTPBreakIdentity.podIdentifier(breakID: "cue-10").breakID
        let decision = Self.decision(breakID, slate: 10_000, decidedAt: Self.registered.addingTimeInterval(5))
        let timeline = StreamTimeline(
            Self.input(
                Self.stream(.live), decisions: [decision],
                states: [try Self.state(breakID: "cue-10", start: Self.registered.addingTimeInterval(40))],
                now: Self.registered.addingTimeInterval(100)))
        #expect(timeline.axis == "wall")
        #expect(timeline.now == 100)
        #expect(timeline.duration == 100)
        let spans = timeline.spans.map { "\($0.kind) \($0.start) \($0.duration)" }
        #expect(
            spans == ["content 0.0 40.0", "content 60.0 40.0", "break 40.0 20.0", "ad 40.0 10.0", "slate 50.0 10.0"])
        #expect(zip(timeline.events.map(\.at), [40, 49.967]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(timeline.events.allSatisfy { $0.state == "pending" })
    }

    @Test func aLiveBreakNoVTPStitchedIsDrawnWhereItWasDecided() {
        let decision = Self.decision("pod_3", decidedAt: Self.registered.addingTimeInterval(12))
        let timeline = StreamTimeline(
            Self.input(Self.stream(.live), decisions: [decision], now: Self.registered.addingTimeInterval(30)))
        #expect(timeline.spans.first { $0.kind == "break" }?.start == 12)
    }

    @Test func anIdleLiveStreamsAxisStopsTwoMinutesAfterItsLastActivity() {
        let decision = Self.decision("pod_1", decidedAt: Self.registered.addingTimeInterval(10))
        let timeline = StreamTimeline(
            Self.input(Self.stream(.live), decisions: [decision], now: Self.registered.addingTimeInterval(3000)))
        // The break ends at 20 s; two minutes later the axis stops, and now is off it.
        #expect(timeline.duration == 140)
        #expect(timeline.now == nil)
    }

    @Test func eventsTakeTheirVerificationBeaconsAndFailures() {
        let decision = Self.decision("vod_0")
        let plan = PodVODPlan(
            breaks: [PodVODPlan.Break(index: 0, type: "pre", contentOffset: 0)], contentDuration: 30, profiles: [:],
            adTag: nil, createdAt: Self.registered)
        let verifiedAt = Self.registered.addingTimeInterval(2)
        let activity = PodStreamActivity(
            verifiedEvents: ["vod_0-start": verifiedAt, "vod_0-complete": verifiedAt], beaconsSent: ["vod_0-start": 2],
            beaconsAbandoned: ["vod_0-complete": 1])
        let beacons = [
            Beacon(
                id: 7, session: "s", ad: "vod_0_ad1", event: "impression", receivedAt: "2027-01-15T08:00:02.010Z",
                macros: [:], query: "", idempotencyKey: nil),
            Beacon(
                id: 8, session: "s", ad: "someone-else", event: "start", receivedAt: "2027-01-15T08:00:02.020Z",
                macros: [:], query: "", idempotencyKey: nil),
        ]
        let timeline = StreamTimeline(
            Self.input(
                Self.stream(.vod), decisions: [decision], plan: plan, activity: activity,
                failures: ["vod_0-complete": "HTTP 500"], beacons: beacons, now: Self.registered))
        #expect(timeline.axis == "stream")
        #expect(timeline.duration == 40)
        #expect(timeline.events.map(\.state) == ["verified", "failed"])
        #expect(timeline.events.map(\.error) == [nil, "HTTP 500"])
        #expect(timeline.events.first?.verifiedAt == "2027-01-15T08:00:02.000Z")
        #expect(timeline.beacons.map(\.eventID) == ["vod_0-start", nil])
        #expect(timeline.beacons.map(\.at) == [0, nil])
    }

    @Test func aPlannedBreakWithoutADecisionIsLeftOut() {
        let plan = PodVODPlan(
            breaks: [
                PodVODPlan.Break(index: 0, type: "pre", contentOffset: 0),
                PodVODPlan.Break(index: 1, type: "mid", contentOffset: 15),
            ], contentDuration: 30, profiles: [:], adTag: nil, createdAt: Self.registered)
        let timeline = StreamTimeline(
            Self.input(Self.stream(.vod), decisions: [Self.decision("vod_1")], plan: plan, now: Self.registered))
        let spans = timeline.spans.map { "\($0.kind) \($0.start) \($0.duration)" }
        #expect(spans == ["content 0.0 15.0", "content 25.0 15.0", "break 15.0 10.0", "ad 15.0 10.0"])
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/track/s1/ad%201/start?x=1", "ad 1", "start"),
        ("{base}/track/s1/vod_0_ad1/impression#f", "vod_0_ad1", "impression"),
    ])
    func aTrackingURLNamesItsAdAndEvent(url: String, ad: String, event: String) {
        #expect(StreamTimeline.trackKey(url) == StreamTimeline.BeaconKey(ad: ad, event: event))
    }

    @Test(arguments: ["http://example.com/pixel?e=start", "http://127.0.0.1/track/s1/only-two", ""])
    func otherURLsNameNoBeacon(url: String) {
        #expect(StreamTimeline.trackKey(url) == nil)
    }
}
