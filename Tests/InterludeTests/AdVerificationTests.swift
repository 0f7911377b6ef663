import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// `<AdVerifications>`: the SDK runs no Open Measurement, so it reports each
/// verification as not executed (VAST 4.1 §3.17, `[REASON]` 2).
@Suite("Ad verifications")
@MainActor
struct AdVerificationTests {
    static func verification(_ vendor: String) -> String {
        """
        <Verification vendor="\(vendor)"><JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://verify.example/\(vendor).js]]></JavaScriptResource>
        <VerificationParameters><![CDATA[{"id":"\(vendor)"}]]></VerificationParameters>
        <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[http://127.0.0.1:9/t/ad1/notExecuted-\(vendor)?reason=[REASON]]]></Tracking></TrackingEvents></Verification>
        """
    }

    static let inline = vastXML(
        adXML(extraInLine: "<AdVerifications>\(verification("inline"))</AdVerifications>"))

    @Test func eachVerificationIsReportedNotExecutedWithReasonTwoWhenTheAdStarts() async throws {
        let wrapper = wrapperVAST(
            id: "w", target: "\(testBase)/inline",
            extra: "<AdVerifications>\(Self.verification("wrapper"))</AdVerifications>")
        let harness = ManagerHarness(routes: [
            "\(testBase)/tag": .body(wrapper), "\(testBase)/inline": .body(Self.inline),
        ])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        let reported = trackingRequests(harness.http.requestedURLs, ad: "ad1").filter { $0.hasPrefix("notExecuted") }
        #expect(reported.sorted() == ["notExecuted-inline?reason=2", "notExecuted-wrapper?reason=2"])
    }

    @Test func nothingIsReportedBeforeTheAdPlays() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(Self.inline)])
        harness.recorder.startOnLoaded = false
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(!harness.http.requestedURLs.contains { $0.contains("notExecuted") })
    }

    @Test func theAdListsItsVerificationsAndThoseOfItsWrappers() async throws {
        let wrapper = wrapperVAST(
            id: "w", target: "\(testBase)/inline",
            extra: "<AdVerifications>\(Self.verification("wrapper"))</AdVerifications>")
        let harness = ManagerHarness(routes: [
            "\(testBase)/tag": .body(wrapper), "\(testBase)/inline": .body(Self.inline),
        ])
        harness.recorder.startOnLoaded = false
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        let verifications = try #require(manager.ads.first?.adVerifications)
        #expect(verifications.map(\.vendor) == ["wrapper", "inline"])
        #expect(verifications.last?.javaScriptResources.map(\.url) == ["https://verify.example/inline.js"])
        #expect(verifications.last?.javaScriptResources.first?.apiFramework == "omid")
        #expect(verifications.last?.verificationParameters == #"{"id":"inline"}"#)
    }

    @Test func anAppThatRunsTheVerificationsItselfStopsTheReports() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(Self.inline)])
        var rendering = AdsRenderingSettings()
        rendering.reportsVerificationsNotExecuted = false
        let manager = try await harness.load("\(testBase)/tag", rendering: rendering)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.recorder.types.contains(.started))
        #expect(!harness.http.requestedURLs.contains { $0.contains("notExecuted") })
    }
}
