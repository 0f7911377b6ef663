import Foundation
import InterludeTestSupport
import InterludeVAST

@testable import Interlude

let testBase = "http://127.0.0.1:9"

/// Serves every corpus VAST file at `http://127.0.0.1:9/<folder>/<file>`.
func corpusRoutes() throws -> [String: InMemoryHTTPClient.Reply] {
    var routes: [String: InMemoryHTTPClient.Reply] = [:]
    for path in Corpus.files(withExtension: "xml") {
        routes["\(testBase)/\(path)"] = .body(String(decoding: try Corpus.data(path), as: UTF8.self))
    }
    return routes
}

func makeResolver(
    _ http: InMemoryHTTPClient, clock: ManualClock = ManualClock(), configure: (inout Settings) -> Void = { _ in }
) -> WrapperResolver {
    var settings = Settings()
    configure(&settings)
    return WrapperResolver(
        http: http, clock: clock, settings: settings,
        macros: VASTMacroFiller(now: { Date(timeIntervalSince1970: 0) }, cacheBuster: { "12345678" }))
}

/// A minimal inline ad document.
func inlineVAST(
    id: String = "inline", sequence: Int? = nil, impression: String = "http://127.0.0.1:9/imp",
    extra: String = ""
) -> String {
    """
    <VAST version="4.2"><Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine><AdSystem>s</AdSystem><AdTitle>\(id)</AdTitle>
    <Impression><![CDATA[\(impression)]]></Impression><Error><![CDATA[http://127.0.0.1:9/err/\(id)?c=[ERRORCODE]]]></Error>
    <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[http://127.0.0.1:9/m.mp4]]></MediaFile></MediaFiles>
    <TrackingEvents><Tracking event="start"><![CDATA[http://127.0.0.1:9/start/\(id)]]></Tracking></TrackingEvents></Linear></Creative></Creatives>\(extra)</InLine></Ad></VAST>
    """
}

/// A wrapper document pointing at `target`.
func wrapperVAST(id: String, target: String, attributes: String = "", extra: String = "") -> String {
    """
    <VAST version="4.2"><Ad id="\(id)"><Wrapper \(attributes)><AdSystem>w</AdSystem><VASTAdTagURI><![CDATA[\(target)]]></VASTAdTagURI>
    <Impression><![CDATA[http://127.0.0.1:9/imp/\(id)]]></Impression><Error><![CDATA[http://127.0.0.1:9/err/\(id)?c=[ERRORCODE]]]></Error>
    <Creatives><Creative><Linear><TrackingEvents><Tracking event="start"><![CDATA[http://127.0.0.1:9/start/\(id)]]></Tracking></TrackingEvents></Linear></Creative></Creatives>\(extra)</Wrapper></Ad></VAST>
    """
}
