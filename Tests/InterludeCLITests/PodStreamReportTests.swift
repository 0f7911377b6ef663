import Foundation
import Interlude
import InterludeServer
import InterludeVAST
import Testing

@testable import InterludeCLI

/// The demo's pod-serving report: what a stream owes (per break and ad:
/// the app's events, verifications, server-side beacons) against what
/// arrived, each exactly once.
@Suite("Pod-serving demo report")
struct PodStreamReportTests {
    static let types: [PodEventType] = [.start, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    /// A break of `ads` ads; each event's tracking URLs are those VAST gives it
    /// (start: impression, creativeView and start; the others their own).
    static func decision(_ breakID: String, ads: Int) -> PodBreakDecision {
        let podAds = (1...ads).map { position -> PodAd in
            let adID = "\(breakID)_ad\(position)"
            let events = types.map { PodAdEvent(type: $0, id: "google_\(adID)_\($0.rawValue)", offset: 0) }
            func url(_ event: String) -> String { "http://__BASE__/track/s1/\(adID)/\(event)?cb=[CACHEBUSTING]" }
            let beacons: [String: [String]] = [
                "start": [url("impression"), url("creativeView"), url("start")],
                "firstquartile": [url("firstQuartile")], "midpoint": [url("midpoint")],
                "thirdquartile": [url("thirdQuartile")], "complete": [url("complete")],
            ]
            return PodAd(
                position: position, adID: adID, creativeID: "c\(position)", title: "", advertiser: "", clickThrough: "",
                duration: 5000, offset: (position - 1) * 5000, events: events, vast: "", beacons: beacons)
        }
        return PodBreakDecision(
            streamID: "s1", breakID: breakID, breakDigest: "", requestedDuration: ads * 5000, duration: ads * 5000,
            slateDuration: 0, ads: podAds, targeting: [:], decidedAt: Date(timeIntervalSince1970: 0))
    }

    static func ad(_ id: String) -> Interlude.Ad {
        let inLine = InLine()
        return Interlude.Ad(
            resolved: ResolvedAd(ad: InterludeVAST.Ad(id: id, content: .inLine(inLine)), inLine: inLine),
            podInfo: AdPodInfo(adPosition: 1, totalAds: 1))
    }

    /// What an app that played `decision` received.
    static func appEvents(_ decision: PodBreakDecision) -> [AdEvent] {
        var events = [
            AdEvent(type: .adPeriodStarted), AdEvent(type: .adBreakStarted, adData: ["breakId": decision.breakID]),
        ]
        for ad in decision.ads {
            for type in PodStreamReport.adEventTypes { events.append(AdEvent(type: type, ad: Self.ad(ad.adID))) }
        }
        events += [AdEvent(type: .adBreakEnded, adData: ["breakId": decision.breakID]), AdEvent(type: .adPeriodEnded)]
        return events
    }

    static func beacons(_ decision: PodBreakDecision) -> [InterludeServer.Beacon] {
        var beacons: [InterludeServer.Beacon] = []
        for ad in decision.ads {
            for event in [
                "impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
            ] {
                beacons.append(
                    InterludeServer.Beacon(
                        id: Int64(beacons.count + 1), session: "s1", ad: ad.adID, event: event, receivedAt: "",
                        macros: [:], query: "", idempotencyKey: nil))
            }
        }
        return beacons
    }

    func report(
        decisions: [PodBreakDecision], played: [PodBreakDecision], owing: PodStreamReport.Owing = .everyBreak,
        edit: (inout [AdEvent], inout [String: Int], inout Set<String>, inout [InterludeServer.Beacon]) -> Void = {
            _, _, _, _ in
        }
    ) -> PodStreamReport {
        var events = [AdEvent(type: .streamLoaded), AdEvent(type: .streamStarted)] + played.flatMap(Self.appEvents)
        let ids = played.flatMap(\.events).map(\.id)
        var sent = Dictionary(uniqueKeysWithValues: ids.map { ($0, 1) })
        var verified = Set(ids)
        var beacons = played.flatMap(Self.beacons)
        edit(&events, &sent, &verified, &beacons)
        return PodStreamReport(
            label: "VOD", streamID: "s1", decisions: decisions, appEvents: events, verificationsSent: sent,
            verified: verified, beacons: beacons, owing: owing)
    }

    @Test func aStreamWhoseEveryOwedItemArrivedOnceIsComplete() {
        let breaks = [Self.decision("vod_0", ads: 3), Self.decision("vod_1", ads: 2)]
        let report = report(decisions: breaks, played: breaks)
        #expect(report.problems == [])
        #expect(report.isComplete)
        // 2 break events and 5 ad events per ad; 5 verifications per ad; 7 beacons per ad.
        #expect(report.text().contains("✔ 2 breaks, 5 ads: 29 app events, 25 verifications and 35 server-side beacons"))
        #expect(report.owedBeacons.values.reduce(0, +) == 35)
    }

    @Test func whatIsMissingOrDoubledIsNamed() {
        let breaks = [Self.decision("vod_0", ads: 2)]
        let report = report(decisions: breaks, played: breaks) { events, sent, verified, beacons in
            events.removeAll { $0.type == .complete && $0.ad?.adID == "vod_0_ad2" }
            events.append(AdEvent(type: .midpoint, ad: Self.ad("vod_0_ad1")))
            sent["google_vod_0_ad1_start"] = 2
            verified.remove("google_vod_0_ad2_midpoint")
            beacons.removeAll { $0.ad == "vod_0_ad1" && $0.event == "creativeView" }
            beacons.append(beacons[0])
        }
        #expect(!report.isComplete)
        let texts = Set(report.problems.map(\.text))
        #expect(texts.contains("✘ missing: app event COMPLETE of vod_0_ad2 (owed 1, got 0)"))
        #expect(texts.contains("✘ too many: app event MIDPOINT of vod_0_ad1 (owed 1, got 2)"))
        #expect(texts.contains("✘ too many: verification start of vod_0_ad1 sent (owed 1, got 2)"))
        #expect(texts.contains("✘ missing: verification midpoint of vod_0_ad2 accepted (owed 1, got 0)"))
        #expect(texts.contains("✘ missing: beacon creativeView of vod_0_ad1 (owed 1, got 0)"))
        #expect(texts.contains("✘ too many: beacon impression of vod_0_ad1 (owed 1, got 2)"))
        #expect(report.problems.count == 6)
    }

    @Test func aVODBreakThatNeverPlayedIsMissingWhileLiveOwesOnlyBreaksThatPlayed() {
        let reached = Self.decision("pod_5", ads: 1)
        let behind = Self.decision("pod_4", ads: 2)
        let vod = report(decisions: [behind, reached], played: [reached])
        #expect(!vod.isComplete)
        #expect(vod.problems.contains { $0.text == "✘ missing: app event AD_BREAK_STARTED of pod_4 (owed 1, got 0)" })
        let live = report(decisions: [behind, reached], played: [reached], owing: .breaksWithEvidence)
        #expect(live.isComplete)
        #expect(live.owedBreaks.map(\.breakID) == ["pod_5"])
        #expect(live.text().contains("decided but not reached (behind the join point or after the stop): pod_4"))
        // One verification of a break is evidence it played: the rest of it is then owed.
        let partly = report(decisions: [behind, reached], played: [reached], owing: .breaksWithEvidence) {
            _, sent, _, _ in sent["google_pod_4_ad1_start"] = 1
        }
        #expect(partly.owedBreaks.map(\.breakID) == ["pod_4", "pod_5"])
        #expect(partly.problems.contains { $0.text == "✘ missing: app event STARTED of pod_4_ad1 (owed 1, got 0)" })
    }

    @Test func eventsAndPingsNothingOwedAreReportedAndNoBreakAtAllIsNotComplete() {
        let breaks = [Self.decision("vod_0", ads: 1)]
        let report = report(decisions: breaks, played: breaks) { events, sent, _, beacons in
            events.append(AdEvent(type: .started, ad: Self.ad("stranger")))
            sent["google_other"] = 1
            beacons.append(
                InterludeServer.Beacon(
                    id: 99, session: "s1", ad: "vod_0_ad1", event: "click", receivedAt: "", macros: [:], query: "",
                    idempotencyKey: nil))
        }
        let texts = Set(report.problems.map(\.text))
        #expect(texts.contains("✘ not owed: app event STARTED of stranger (got 1)"))
        #expect(texts.contains("✘ not owed: verification google_other (got 1)"))
        #expect(texts.contains("✘ not owed: beacon click of vod_0_ad1 (got 1)"))
        let nothing = self.report(decisions: [], played: [])
        #expect(!nothing.isComplete)
        #expect(nothing.text().contains("✘ no break played"))
    }

    @Test func aTrackingURLsAdAndEventAreReadFromItsPath() {
        #expect(
            PodStreamReport.beaconKey(ofTrackingURL: "http://h:1/track/s/vod_1_ad2/firstQuartile?cb=1")
                == PodStreamReport.BeaconKey(ad: "vod_1_ad2", event: "firstQuartile"))
        #expect(
            PodStreamReport.beaconKey(ofTrackingURL: "http://h/track/s/a%2Fb/start") == .init(ad: "a/b", event: "start")
        )
        #expect(PodStreamReport.beaconKey(ofTrackingURL: "http://h/track/s/only-two") == nil)
        #expect(PodStreamReport.beaconKey(ofTrackingURL: "http://h/elsewhere/s/a/start") == nil)
        #expect(PodStreamReport.beaconKey(ofTrackingURL: "") == nil)
    }

    @Test func theSeekIsCheckedToHaveSnappedBackAndResumedWhereItWasAimed() {
        typealias Record = StreamSession.SeekRecord
        let good = PodDemo.seekNotes(
            Record(fromContent: 2.1, toContent: 14, accepted: true, snappedBreakID: "vod_1", resumedContent: 14.3))
        #expect(good.1 == [])
        #expect(good.0.first?.hasPrefix("✔ seek 00:02 → 00:14 (content) over the unplayed vod_1") == true)
        let noSnap = PodDemo.seekNotes(Record(fromContent: 2, toContent: 14, accepted: true))
        #expect(noSnap.1.count == 1)
        let wrongPlace = PodDemo.seekNotes(
            Record(fromContent: 2, toContent: 14, accepted: true, snappedBreakID: "vod_1", resumedContent: 8))
        #expect(wrongPlace.1.count == 1)
        #expect(PodDemo.seekNotes(nil).1.count == 1)
    }
}
