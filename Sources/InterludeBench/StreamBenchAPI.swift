import Foundation
import Interlude
import InterludeTestSupport

/// A pod-serving API in memory for the stream benchmark: registration,
/// metadata (VOD: an hour's timeline; live: the breaks around the one
/// playing) and verification (204), keeping nothing per request so that a
/// 24-hour run measures the SDK, not the double.
///
/// `currentBreak` and the counters are behind `lock`, so the unchecked conformance is sound.
final class StreamBenchAPI: HTTPClient, @unchecked Sendable {
    static let server = "http://127.0.0.1:9"
    static let metadataURL = "\(server)/bench/metadata"
    static let verificationBase = "\(server)/bench/verify/"
    /// A break every two minutes: 90 s of content, then 30 s of three 10 s ads.
    static let breakInterval: TimeInterval = 120
    static let breakLength: TimeInterval = 30
    static let adsPerBreak = 3
    static let eventTypes = ["start", "firstquartile", "midpoint", "thirdquartile", "complete"]

    let vodHours: Int?
    private let lock = NSLock()
    private var current = 0
    private(set) var verifications = 0
    private var metadataAnswers = 0
    /// Metadata requests answered so far.
    var metadataAnswered: Int { lock.withLock { metadataAnswers } }
    /// Verification URLs seen more than once (a duplicate is a defect).
    private(set) var repeatedVerifications: [String] = []
    /// The verification URLs of the latest `recentGeneration` and of the
    /// one before: a repeat is caught however close to a rollover it falls,
    /// and memory stays flat over a day (10,800 URLs).
    private var recent: Set<String> = []
    private var previous: Set<String> = []
    static let recentGeneration = 2_000
    private let vodDocument: Data?

    /// A live API (nil) or a VOD one of `vodHours` hours.
    init(vodHours: Int?) {
        self.vodHours = vodHours
        vodDocument = vodHours.map { Self.vodMetadata(hours: $0) }
    }

    /// The live break now playing (its metadata and its neighbours' are served).
    var currentBreak: Int {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let url = request.url.absoluteString
        if request.method == "POST" {
            let body = """
                {"stream_id":"bench","media_verification_url":"\(Self.verificationBase)","metadata_url":"\(Self.metadataURL)","polling_frequency":10}
                """
            return HTTPResponse(statusCode: 200, body: Data(body.utf8), url: request.url)
        }
        if url.hasPrefix(Self.metadataURL) {
            let body = vodDocument ?? Self.liveMetadata(around: currentBreak)
            lock.withLock { metadataAnswers += 1 }
            return HTTPResponse(statusCode: 200, body: body, url: request.url)
        }
        lock.withLock {
            verifications += 1
            if previous.contains(url) || !recent.insert(url).inserted { repeatedVerifications.append(url) }
            // Event IDs are unique per break, and a repeat comes within minutes: two generations catch it.
            if recent.count >= Self.recentGeneration {
                swap(&previous, &recent)
                recent.removeAll(keepingCapacity: true)
            }
        }
        return HTTPResponse(statusCode: 204, url: request.url)
    }

    static func breakStart(_ index: Int) -> TimeInterval { Double(index) * breakInterval + 90 }

    static func tagKey(_ breakIndex: Int, _ position: Int, _ type: Int) -> String {
        "google_b\(breakIndex)p\(position)t\(type)"
    }

    /// The live ID3 frames of break `index`, each handed over 4 s early.
    static func liveCues(forBreak index: Int) -> [ScriptedStreamDisplay.Cue] {
        var cues: [ScriptedStreamDisplay.Cue] = []
        for position in 1...adsPerBreak {
            let start = breakStart(index) + Double(position - 1) * 10
            for (type, offset) in zip(0..<5, [0, 2.5, 5, 7.5, 9.95]) {
                cues.append(.id3(tagKey(index, position, type) + "v", at: start + offset, lead: 4))
            }
        }
        return cues
    }

    static func liveMetadata(around index: Int) -> Data {
        var tags: [String] = []
        var ads: [String] = []
        var breaks: [String] = []
        for item in max(0, index - 1)...(index + 1) {
            breaks.append(#""b\#(item)":{"type":"mid","duration":30,"expected_duration":30,"ads":3}"#)
            for position in 1...adsPerBreak {
                ads.append(
                    #""b\#(item)a\#(position)":{"ad_break_id":"b\#(item)","position":\#(position),"duration":10,"title":"Bench","clickthrough_url":"https://advertiser.example/"}"#
                )
                for (type, name) in eventTypes.enumerated() {
                    tags.append(
                        #""\#(tagKey(item, position, type))":{"ad":"b\#(item)a\#(position)","ad_break_id":"b\#(item)","type":"\#(name)"}"#
                    )
                }
            }
        }
        let json =
            #"{"tags":{\#(tags.joined(separator: ","))},"ads":{\#(ads.joined(separator: ","))},"ad_breaks":{\#(breaks.joined(separator: ","))}}"#
        return Data(json.utf8)
    }

    static func vodMetadata(hours: Int) -> Data {
        var breaks: [String] = []
        for index in 0..<(hours * 30) {
            let start = breakStart(index)
            var ads: [String] = []
            for position in 1...adsPerBreak {
                let adStart = start + Double(position - 1) * 10
                let events = zip(eventTypes, [0, 2.5, 5, 7.5, 9.967]).enumerated().map { type, pair in
                    #"{"type":"\#(pair.0)","id":"\#(tagKey(index, position, type))v","time":\#(adStart + pair.1)}"#
                }
                ads.append(
                    #"{"id":"b\#(index)a\#(position)","position":\#(position),"start":\#(adStart),"duration":10,"title":"Bench","clickthrough_url":"https://advertiser.example/","events":[\#(events.joined(separator: ","))]}"#
                )
            }
            breaks.append(
                #"{"id":"b\#(index)","type":"mid","start":\#(start),"duration":30,"ads":[\#(ads.joined(separator: ","))]}"#
            )
        }
        return Data(#"{"breaks":[\#(breaks.joined(separator: ","))],"tags":{}}"#.utf8)
    }
}
