import Foundation
import InterludeTestSupport

@testable import Interlude

/// Pod-serving documents written from DAI.md §2 and Google's pod-serving
/// guides, for the DAI tests.
enum StreamFixtures {
    static let server = "http://127.0.0.1:9"
    static let streamID = "stream-1"
    static let metadataURL =
        "\(server)/ssai/pods/api/v1/network/21775744923/custom_asset/interlude-live/stream/stream-1/metadata"
    static let verificationBase = "\(server)/ssai/pods/api/v1/network/21775744923/stream/stream-1/media/"
    static let liveRegistrationURL = "\(server)/ssai/pods/api/v1/network/21775744923/custom_asset/interlude-live/stream"
    static let vodRegistrationURL = "\(server)/ondemand/pods/api/v1/network/21775744923/stream_registration"

    static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func registration(pollingFrequency: Double = 10, metadata: String = metadataURL) -> String {
        json([
            "stream_id": streamID, "media_verification_url": verificationBase, "metadata_url": metadata,
            "polling_frequency": pollingFrequency, "valid_for": "8h0m0s", "valid_until": "2026-11-30T05:00:00Z",
        ])
    }

    /// VOD: 120 s of content with a 20 s pre-roll (2 ads), a 30 s mid-roll at
    /// content 60 (3 ads, stream 80–110) and a 10 s post-roll at content 120
    /// (stream 170–180), as `interlude serve` writes a VOD timeline: each
    /// event with its full ID and stream time (complete one 30 fps frame
    /// before the ad's end), and the tags keyed by the IDs' prefixes.
    static let vodBreaks: [(id: String, type: String, start: Double, content: Double, ads: [String])] = [
        ("pre", "pre", 0, 0, ["p1", "p2"]), ("mid1", "mid", 80, 60, ["m1", "m2", "m3"]),
        ("post", "post", 170, 120, ["z1"]),
    ]
    static let vodStreamDuration: TimeInterval = 180
    static let vodEventTypes = ["start", "firstquartile", "midpoint", "thirdquartile", "complete"]

    static func vodMetadata(clickThrough: String? = "https://advertiser.example/landing") -> String {
        var tags: [String: Any] = [:]
        var breaks: [[String: Any]] = []
        for item in vodBreaks {
            var ads: [[String: Any]] = []
            for (index, ad) in item.ads.enumerated() {
                let start = item.start + Double(index) * 10
                let offsets = [0, 2.5, 5, 7.5, 9.967]
                let events = zip(vodEventTypes, offsets).map { type, offset -> [String: Any] in
                    tags[vodTagKey(ad, type)] = ["ad": ad, "ad_break_id": item.id, "type": type]
                    return ["type": type, "id": vodEventID(ad, type), "time": start + offset]
                }
                var entry: [String: Any] = [
                    "id": ad, "position": index + 1, "start": start, "duration": 10, "title": "Ad \(ad)",
                    "advertiser": "Interlude", "creative_id": "c-\(ad)", "events": events,
                    "click_tracking_urls": ["\(server)/track/stream-1/\(ad)/click"],
                ]
                if let clickThrough { entry["clickthrough_url"] = clickThrough }
                ads.append(entry)
            }
            breaks.append([
                "id": item.id, "index": breaks.count, "type": item.type, "content_time": item.content,
                "start": item.start, "duration": Double(item.ads.count) * 10, "ads": ads,
            ])
        }
        return json([
            "stream_id": streamID, "content_duration": 120, "duration": vodStreamDuration, "breaks": breaks,
            "tags": tags,
        ])
    }

    static func vodTagKey(_ ad: String, _ type: String) -> String { "google_\(ad)_\(type)" }
    /// The full ID: the tag key plus a check, as the server makes them.
    static func vodEventID(_ ad: String, _ type: String) -> String { vodTagKey(ad, type) + "_c4f1" }

    /// Live: break `b7` (mid, 30 s, 3 ads of 10 s). Tag keys are prefixes
    /// of the event IDs the stream carries (`google_7<ad><event>` + a suffix).
    static func liveMetadata(adCount: Int = 3, breakID: String = "b7", withSlate: Bool = false) -> String {
        var tags: [String: Any] = [:]
        var ads: [String: Any] = [:]
        for position in 1...adCount {
            let ad = "\(breakID)-a\(position)"
            ads[ad] = [
                "ad_break_id": breakID, "position": position, "duration": 10, "title": "Live \(position)",
                "clickthrough_url": "https://advertiser.example/\(position)",
            ]
            for (index, type) in liveTypes.enumerated() {
                tags[liveTagKey(breakID, position, index)] = ["ad": ad, "ad_break_id": breakID, "type": type]
            }
        }
        if withSlate {
            ads["\(breakID)-slate"] = ["ad_break_id": breakID, "position": adCount + 1, "duration": 5, "slate": true]
            tags["google_slate\(breakID)"] = ["ad": "\(breakID)-slate", "ad_break_id": breakID, "type": "start"]
        }
        let breaks: [String: Any] = [breakID: ["type": "mid", "duration": Double(adCount) * 10, "ads": adCount]]
        return json(["tags": tags, "ads": ads, "ad_breaks": breaks])
    }

    static let liveTypes = ["start", "firstquartile", "midpoint", "thirdquartile", "complete", "progress"]

    static func liveTagKey(_ breakID: String, _ position: Int, _ typeIndex: Int) -> String {
        "google_\(breakID)\(position)\(typeIndex)"
    }

    /// The full event ID a live stream carries for a tag (the key plus a per-viewer suffix).
    static func liveEventID(_ breakID: String = "b7", position: Int, type: String) -> String {
        liveTagKey(breakID, position, liveTypes.firstIndex(of: type)!) + "x9f3"
    }

    /// Timed metadata for break `b7` starting at `start`: each ad's start,
    /// quartiles and complete at their stream times, handed over `lead` s early.
    static func liveCues(
        breakID: String = "b7", start: TimeInterval, adCount: Int = 3, lead: TimeInterval = 0
    ) -> [ScriptedStreamDisplay.Cue] {
        var cues: [ScriptedStreamDisplay.Cue] = []
        for position in 1...adCount {
            let adStart = start + Double(position - 1) * 10
            let offsets: [(String, Double)] = [
                ("start", 0), ("firstquartile", 2.5), ("midpoint", 5), ("thirdquartile", 7.5), ("complete", 10),
            ]
            for (type, offset) in offsets {
                let time = adStart + offset - (type == "complete" ? 0.05 : 0)
                cues.append(.id3(liveEventID(breakID, position: position, type: type), at: time, lead: lead))
            }
        }
        return cues.sorted { $0.time - $0.lead < $1.time - $1.lead }
    }
}

/// The ad events among `effects` (without `log`), in order.
func eventTypes(_ effects: [StreamTimeline.Effect]) -> [AdEvent.EventType] {
    effects.compactMap { effect in
        if case .emit(let event) = effect, event.type != .log { return event.type }
        return nil
    }
}

func verifications(_ effects: [StreamTimeline.Effect]) -> [String] {
    effects.compactMap { effect in
        if case .verify(let id) = effect { return id }
        return nil
    }
}

func seeks(_ effects: [StreamTimeline.Effect]) -> [TimeInterval] {
    effects.compactMap { effect in
        if case .seekStream(let time) = effect { return time }
        return nil
    }
}

func uiStates(_ effects: [StreamTimeline.Effect]) -> [AdUIState] {
    effects.compactMap { effect in
        if case .ui(let state) = effect { return state }
        return nil
    }
}

/// Drives a timeline as a display would: reports every `step` seconds,
/// with the clock moving as the stream plays.
struct TimelineDriver {
    var timeline: StreamTimeline
    var now: TimeInterval = 100
    var position: TimeInterval?
    var step: TimeInterval = 0.25

    init(_ timeline: StreamTimeline) { self.timeline = timeline }

    static func vod(snapback: Bool = false) -> TimelineDriver {
        var timeline = StreamTimeline(
            vod: try! PodMetadata(parsing: Data(StreamFixtures.vodMetadata().utf8)), disableUi: true)
        timeline.snapback = snapback
        timeline.disableUi = true
        return TimelineDriver(timeline)
    }

    /// Plays from the current position (or 0) to `end`; a seek the
    /// timeline asks for lands at once, as on a display that seeks instantly.
    mutating func play(to end: TimeInterval) -> [StreamTimeline.Effect] {
        var effects: [StreamTimeline.Effect] = []
        if position == nil { report(0, into: &effects) }
        var reports = 0
        while let current = position, current < end - 1e-9, reports < 100_000 {
            now += step
            report(min(end, current + step), into: &effects)
            reports += 1
        }
        return effects
    }

    /// One report at `time`, a tick after the last (a seek when far from it).
    mutating func report(at time: TimeInterval) -> [StreamTimeline.Effect] {
        var effects: [StreamTimeline.Effect] = []
        now += step
        report(time, into: &effects)
        return effects
    }

    private mutating func report(_ time: TimeInterval, into effects: inout [StreamTimeline.Effect]) {
        let before = effects.count
        timeline.playheadMoved(to: time, at: now, into: &effects)
        position = time
        if let target = seeks(Array(effects[before...])).last { position = target }
    }
}
