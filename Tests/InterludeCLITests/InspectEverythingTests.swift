import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeCLI

/// `interlude inspect --json` and `--verbose` list every URL a document
/// holds with what it is for, and every attribute; the expected values are
/// the document's own.
@Suite("interlude inspect shows everything")
struct InspectEverythingTests {
    static let document = """
        <VAST version="4.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <Ad id="full" sequence="1" adType="video" conditionalAd="false">
            <InLine>
              <AdSystem version="7.1">Sys</AdSystem>
              <AdTitle>Everything</AdTitle>
              <AdServingId>serve-1</AdServingId>
              <Impression id="i1">http://t.test/imp1</Impression>
              <Impression>http://t.test/imp2</Impression>
              <Category authority="https://iabtechlab.com">IAB1-1</Category>
              <Description>Desc</Description>
              <Advertiser id="adv-9">ACME</Advertiser>
              <Pricing model="CPM" currency="EUR">2.50</Pricing>
              <Survey type="text/html">http://t.test/survey</Survey>
              <Error>http://t.test/error?c=[ERRORCODE]</Error>
              <ViewableImpression id="v1"><Viewable>http://t.test/viewable</Viewable><NotViewable>http://t.test/not-viewable</NotViewable></ViewableImpression>
              <AdVerifications>
                <Verification vendor="vendor.test-omid">
                  <JavaScriptResource apiFramework="omid" browserOptional="true">http://t.test/omid.js</JavaScriptResource>
                  <VerificationParameters>k=v</VerificationParameters>
                  <TrackingEvents><Tracking event="verificationNotExecuted">http://t.test/not-executed?r=[REASON]</Tracking></TrackingEvents>
                </Verification>
              </AdVerifications>
              <Creatives>
                <Creative id="c1" adId="a1" sequence="1">
                  <UniversalAdId idRegistry="ad-id.org">UA-1</UniversalAdId>
                  <Linear skipoffset="25%">
                    <Duration>00:00:20</Duration>
                    <TrackingEvents>
                      <Tracking event="start">http://t.test/start</Tracking>
                      <Tracking event="progress" offset="00:00:05">http://t.test/progress-5s</Tracking>
                      <Tracking event="progress" offset="50%">http://t.test/progress-half</Tracking>
                    </TrackingEvents>
                    <VideoClicks>
                      <ClickThrough id="ct">http://t.test/landing</ClickThrough>
                      <ClickTracking id="ck">http://t.test/click</ClickTracking>
                      <CustomClick id="cc">http://t.test/custom</CustomClick>
                    </VideoClicks>
                    <MediaFiles>
                      <MediaFile id="m1" delivery="progressive" type="video/mp4" width="1280" height="720" codec="avc1.4d401f" minBitrate="1500" maxBitrate="2500" scalable="true" maintainAspectRatio="true" fileSize="5000000" mediaType="2D">http://t.test/m.mp4</MediaFile>
                      <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">http://t.test/mezz.mp4</Mezzanine>
                      <ClosedCaptionFiles><ClosedCaptionFile type="text/vtt" language="en">http://t.test/cc.vtt</ClosedCaptionFile></ClosedCaptionFiles>
                    </MediaFiles>
                    <Icons>
                      <Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top" offset="00:00:01" duration="00:00:10">
                        <StaticResource creativeType="image/png">http://t.test/icon.png</StaticResource>
                        <IconClicks><IconClickThrough>http://t.test/icon-click</IconClickThrough><IconClickTracking>http://t.test/icon-click-tracking</IconClickTracking></IconClicks>
                        <IconViewTracking>http://t.test/icon-view</IconViewTracking>
                      </Icon>
                    </Icons>
                  </Linear>
                </Creative>
                <Creative id="c2">
                  <CompanionAds required="any">
                    <Companion id="comp" width="300" height="250" adSlotId="slot-a">
                      <StaticResource creativeType="image/jpeg">http://t.test/companion.jpg</StaticResource>
                      <CompanionClickThrough>http://t.test/companion-landing</CompanionClickThrough>
                      <CompanionClickTracking id="cct">http://t.test/companion-click</CompanionClickTracking>
                      <TrackingEvents><Tracking event="creativeView">http://t.test/companion-view</Tracking></TrackingEvents>
                    </Companion>
                  </CompanionAds>
                </Creative>
              </Creatives>
              <Extensions>
                <Extension type="uiSettings" xsi:type="SettingsExtension"><UiHideable>1</UiHideable></Extension>
              </Extensions>
            </InLine>
          </Ad>
          <Ad id="wrap">
            <Wrapper followAdditionalWrappers="false" allowMultipleAds="true">
              <AdSystem>W</AdSystem>
              <VASTAdTagURI>http://t.test/next.xml</VASTAdTagURI>
              <Impression>http://t.test/wrapper-imp</Impression>
              <BlockedAdCategories authority="https://iabtechlab.com">IAB25</BlockedAdCategories>
              <Creatives><Creative><Linear><TrackingEvents><Tracking event="complete">http://t.test/wrapper-complete</Tracking></TrackingEvents></Linear></Creative></Creatives>
            </Wrapper>
          </Ad>
        </VAST>
        """

    private func inspect(_ arguments: [String], stdin: String = InspectEverythingTests.document) async
        -> CommandResult
    {
        await InspectCommand.run(arguments: arguments, readStandardInput: { Data(stdin.utf8) })
    }

    private func json(_ stdin: String = InspectEverythingTests.document) async throws -> [String: Any] {
        let result = await inspect(["--json", "-"], stdin: stdin)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    private func ads() async throws -> [[String: Any]] {
        let vast = try #require(try await json()["vast"] as? [String: Any])
        return try #require(vast["ads"] as? [[String: Any]])
    }

    @Test func adLevelURLsAndFieldsAreListed() async throws {
        let ad = try #require(try await ads().first)
        #expect(
            ad["impressionURLs"] as? [[String: String]] == [
                ["id": "i1", "url": "http://t.test/imp1"], ["url": "http://t.test/imp2"],
            ])
        #expect(ad["errorURLs"] as? [String] == ["http://t.test/error?c=[ERRORCODE]"])
        #expect(ad["adSystemVersion"] as? String == "7.1" && ad["adServingID"] as? String == "serve-1")
        #expect(ad["adType"] as? String == "video" && ad["conditionalAd"] as? Bool == false)
        #expect(ad["pricing"] as? [String: String] == ["model": "CPM", "currency": "EUR", "value": "2.50"])
        #expect(
            ad["categories"] as? [[String: String]] == [["authority": "https://iabtechlab.com", "value": "IAB1-1"]])
        #expect(ad["advertiser"] as? [String: String] == ["id": "adv-9", "name": "ACME"])
        #expect(ad["surveys"] as? [[String: String]] == [["type": "text/html", "url": "http://t.test/survey"]])
        let viewable = try #require(ad["viewableImpression"] as? [String: Any])
        #expect(viewable["viewable"] as? [String] == ["http://t.test/viewable"])
        #expect(viewable["notViewable"] as? [String] == ["http://t.test/not-viewable"])
    }

    @Test func verificationsHaveVendorResourcesParametersAndTracking() async throws {
        let ad = try #require(try await ads().first)
        let verification = try #require((ad["verifications"] as? [[String: Any]])?.first)
        #expect(verification["vendor"] as? String == "vendor.test-omid")
        let script = try #require((verification["javaScriptResources"] as? [[String: Any]])?.first)
        #expect(script["url"] as? String == "http://t.test/omid.js")
        #expect(script["apiFramework"] as? String == "omid" && script["browserOptional"] as? Bool == true)
        #expect(verification["parameters"] as? String == "k=v")
        #expect(
            verification["tracking"] as? [[String: String]]
                == [["event": "verificationNotExecuted", "url": "http://t.test/not-executed?r=[REASON]"]])
    }

    @Test func linearTrackingHasEveryURLWithItsEventAndProgressOffsets() async throws {
        let ad = try #require(try await ads().first)
        let creative = try #require((ad["creatives"] as? [[String: Any]])?.first)
        #expect(creative["kind"] as? String == "linear" && creative["id"] as? String == "c1")
        #expect(creative["universalAdIDs"] as? [[String: String]] == [["idRegistry": "ad-id.org", "value": "UA-1"]])
        let linear = try #require(creative["linear"] as? [String: Any])
        let tracking = try #require(linear["tracking"] as? [[String: Any]])
        #expect(
            tracking.map { $0["url"] as? String } == [
                "http://t.test/start", "http://t.test/progress-5s", "http://t.test/progress-half",
            ])
        #expect(tracking.map { $0["event"] as? String } == ["start", "progress", "progress"])
        #expect(tracking[1]["offset"] as? String == "00:00:05" && tracking[1]["offsetSeconds"] as? Double == 5)
        // 50% of the 20 s Duration.
        #expect(tracking[2]["offset"] as? String == "50%" && tracking[2]["offsetSeconds"] as? Double == 10)
        #expect(linear["clickThrough"] as? [String: String] == ["id": "ct", "url": "http://t.test/landing"])
        #expect(linear["clickTracking"] as? [[String: String]] == [["id": "ck", "url": "http://t.test/click"]])
        #expect(linear["customClicks"] as? [[String: String]] == [["id": "cc", "url": "http://t.test/custom"]])
        #expect(linear["skipOffset"] as? String == "25%")
    }

    @Test func everyMediaFileHasAllItsAttributes() async throws {
        let ad = try #require(try await ads().first)
        let linear = try #require((ad["creatives"] as? [[String: Any]])?.first?["linear"] as? [String: Any])
        let file = try #require((linear["mediaFiles"] as? [[String: Any]])?.first)
        #expect(file["url"] as? String == "http://t.test/m.mp4" && file["id"] as? String == "m1")
        #expect(file["type"] as? String == "video/mp4" && file["delivery"] as? String == "progressive")
        #expect(
            file["width"] as? Int == 1280 && file["height"] as? Int == 720 && file["codec"] as? String == "avc1.4d401f")
        #expect(file["minBitrate"] as? Int == 1500 && file["maxBitrate"] as? Int == 2500 && file["bitrate"] == nil)
        #expect(file["scalable"] as? Bool == true && file["maintainAspectRatio"] as? Bool == true)
        #expect(file["fileSize"] as? Int == 5_000_000 && file["mediaType"] as? String == "2D")
        #expect((linear["mezzanines"] as? [[String: Any]])?.first?["url"] as? String == "http://t.test/mezz.mp4")
        #expect(
            linear["closedCaptionFiles"] as? [[String: String]]
                == [["url": "http://t.test/cc.vtt", "type": "text/vtt", "language": "en"]])
    }

    @Test func iconsHaveResourcesClicksAndViewTracking() async throws {
        let ad = try #require(try await ads().first)
        let linear = try #require((ad["creatives"] as? [[String: Any]])?.first?["linear"] as? [String: Any])
        let icon = try #require((linear["icons"] as? [[String: Any]])?.first)
        #expect(
            icon["program"] as? String == "AdChoices" && icon["offset"] as? Double == 1
                && icon["duration"] as? Double == 10)
        #expect(icon["xPosition"] as? String == "right" && icon["yPosition"] as? String == "top")
        #expect(
            icon["resources"] as? [[String: String]]
                == [["kind": "static", "creativeType": "image/png", "url": "http://t.test/icon.png"]])
        #expect(icon["clickThrough"] as? String == "http://t.test/icon-click")
        #expect(icon["clickTracking"] as? [[String: String]] == [["url": "http://t.test/icon-click-tracking"]])
        #expect(icon["viewTracking"] as? [String] == ["http://t.test/icon-view"])
    }

    @Test func companionsHaveResourcesClickThroughAndTracking() async throws {
        let ad = try #require(try await ads().first)
        let creative = try #require((ad["creatives"] as? [[String: Any]])?.last)
        #expect(creative["kind"] as? String == "companionAds")
        let companionAds = try #require(creative["companionAds"] as? [String: Any])
        #expect(companionAds["required"] as? String == "any")
        let companion = try #require((companionAds["companions"] as? [[String: Any]])?.first)
        #expect(companion["width"] as? Int == 300 && companion["height"] as? Int == 250)
        #expect(companion["adSlotID"] as? String == "slot-a")
        #expect(
            companion["resources"] as? [[String: String]]
                == [["kind": "static", "creativeType": "image/jpeg", "url": "http://t.test/companion.jpg"]])
        #expect(companion["clickThrough"] as? String == "http://t.test/companion-landing")
        #expect(
            companion["clickTracking"] as? [[String: String]] == [
                ["id": "cct", "url": "http://t.test/companion-click"]
            ])
        #expect(
            companion["tracking"] as? [[String: String]] == [
                ["event": "creativeView", "url": "http://t.test/companion-view"]
            ])
    }

    @Test func extensionsHaveTheirTypeAttributesAndRawXML() async throws {
        let ad = try #require(try await ads().first)
        let ext = try #require((ad["extensions"] as? [[String: Any]])?.first)
        #expect(ext["type"] as? String == "uiSettings")
        #expect(ext["attributes"] as? [String: String] == ["xsi:type": "SettingsExtension"])
        #expect(ext["rawXML"] as? String == "<UiHideable>1</UiHideable>")
    }

    @Test func wrappersHaveTheirTagURIFlagsBlockedCategoriesAndTracking() async throws {
        let wrapper = try #require(try await ads().last)
        #expect(
            wrapper["kind"] as? String == "wrapper" && wrapper["vastAdTagURI"] as? String == "http://t.test/next.xml")
        #expect(wrapper["followAdditionalWrappers"] as? Bool == false && wrapper["allowMultipleAds"] as? Bool == true)
        #expect(wrapper["impressionURLs"] as? [[String: String]] == [["url": "http://t.test/wrapper-imp"]])
        #expect(
            wrapper["blockedAdCategories"] as? [[String: String]]
                == [["authority": "https://iabtechlab.com", "value": "IAB25"]])
        let linear = try #require((wrapper["creatives"] as? [[String: Any]])?.first?["linear"] as? [String: Any])
        #expect(
            linear["tracking"] as? [[String: String]] == [
                ["event": "complete", "url": "http://t.test/wrapper-complete"]
            ])
    }

    @Test func theDocumentedSummaryKeysStayAsTheyWere() async throws {
        let ad = try #require(try await ads().first)
        #expect(ad["impressions"] as? Int == 2)
        #expect(ad["trackingEvents"] as? [String: Int] == ["start": 1, "progress": 2, "creativeView": 1])
        #expect(ad["clickThrough"] as? String == "http://t.test/landing")
        #expect((ad["mediaFiles"] as? [[String: Any]])?.count == 1)
    }

    @Test func verboseTextShowsTheSameURLs() async throws {
        let result = await inspect(["--verbose", "-"])
        #expect(result.exitCode == 0)
        for line in [
            "impression [i1]: http://t.test/imp1",
            "tracking progress at 00:00:05: http://t.test/progress-5s",
            "tracking progress at 50% (10 s): http://t.test/progress-half",
            "click-through [ct]: http://t.test/landing",
            "click tracking [ck]: http://t.test/click",
            "custom click [cc]: http://t.test/custom",
            "media: video/mp4 1280x720 1500–2500 kbps progressive codec avc1.4d401f id m1 5000000 bytes mediaType 2D",
            "icon AdChoices 20x20 at right,top from 1 s for 10 s",
            "view tracking: http://t.test/icon-view",
            "companion 300x250 id comp slot slot-a",
            "tracking creativeView: http://t.test/companion-view",
            "verification: vendor.test-omid",
            "JavaScript resource (omid), browser optional: http://t.test/omid.js",
            "tracking verificationNotExecuted: http://t.test/not-executed?r=[REASON]",
            "extension type=uiSettings xsi:type=SettingsExtension: <UiHideable>1</UiHideable>",
            "pricing: CPM EUR 2.50",
            "category: IAB1-1 (authority https://iabtechlab.com)",
            "blocked category: IAB25 (authority https://iabtechlab.com)",
            "wraps: http://t.test/next.xml",
            "tracking complete: http://t.test/wrapper-complete",
        ] {
            #expect(result.output.contains(line), "missing: \(line)")
        }
        // Without --verbose, the summary only.
        #expect(!(await inspect(["-"])).output.contains("http://t.test/progress-half"))
    }

    @Test func vmapBreaksListTheirTrackingURLsAndSource() async throws {
        let vmap = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
              <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
                <vmap:AdSource id="src" allowMultipleAds="false" followRedirects="true">
                  <vmap:AdTagURI templateType="vast4">http://t.test/pre.xml</vmap:AdTagURI>
                </vmap:AdSource>
                <vmap:TrackingEvents>
                  <vmap:Tracking event="breakStart">http://t.test/break-start</vmap:Tracking>
                  <vmap:Tracking event="error">http://t.test/break-error?c=[ERRORCODE]</vmap:Tracking>
                </vmap:TrackingEvents>
              </vmap:AdBreak>
            </vmap:VMAP>
            """
        let object = try await json(vmap)
        let adBreak = try #require(((object["vmap"] as? [String: Any])?["adBreaks"] as? [[String: Any]])?.first)
        #expect(
            adBreak["tracking"] as? [[String: String]]
                == [
                    ["event": "breakStart", "url": "http://t.test/break-start"],
                    ["event": "error", "url": "http://t.test/break-error?c=[ERRORCODE]"],
                ])
        #expect(adBreak["adSourceID"] as? String == "src" && adBreak["templateType"] as? String == "vast4")
        #expect(adBreak["allowMultipleAds"] as? Bool == false && adBreak["followRedirects"] as? Bool == true)
        let text = await inspect(["--verbose", "-"], stdin: vmap)
        #expect(text.output.contains("break tracking breakStart: http://t.test/break-start"))
    }
}

@Suite("interlude inspect URL lists each wrapper's URLs")
struct InspectWrapperChainTests {
    @Test func eachWrapperOfTheChainIsListedWithItsOwnURLs() async throws {
        let http = InMemoryHTTPClient(routes: [
            "http://127.0.0.1:9/w": .body(
                """
                <VAST version="4.2"><Ad id="w1"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI>http://127.0.0.1:9/inline</VASTAdTagURI>
                <Impression>http://t.test/w-imp</Impression>
                <Creatives><Creative><Linear><TrackingEvents><Tracking event="start">http://t.test/w-start</Tracking></TrackingEvents></Linear></Creative></Creatives>
                </Wrapper></Ad></VAST>
                """),
            "http://127.0.0.1:9/inline": .body(
                """
                <VAST version="4.2"><Ad id="in"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://t.test/imp</Impression>
                <Creatives><Creative><Linear><Duration>00:00:10</Duration><TrackingEvents><Tracking event="start">http://t.test/start</Tracking></TrackingEvents>
                <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="1" height="1">http://t.test/m.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives>
                </InLine></Ad></VAST>
                """),
        ])
        let result = await InspectCommand.run(
            arguments: ["--json", "http://127.0.0.1:9/w"], readStandardInput: { Data() }, httpClient: http)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let ad = try #require((object["resolvedAds"] as? [[String: Any]])?.first)
        // Impressions of the whole chain fire, so all are listed; the wrapper keeps its own.
        #expect(
            ad["impressionURLs"] as? [[String: String]] == [
                ["url": "http://t.test/w-imp"], ["url": "http://t.test/imp"],
            ])
        let wrapper = try #require((ad["wrappers"] as? [[String: Any]])?.first)
        #expect(wrapper["id"] as? String == "w1" && wrapper["vastAdTagURI"] as? String == "http://127.0.0.1:9/inline")
        let tracking = (wrapper["creatives"] as? [[String: Any]])?.first?["linear"] as? [String: Any]
        #expect(tracking?["tracking"] as? [[String: String]] == [["event": "start", "url": "http://t.test/w-start"]])
        let text = await InspectCommand.run(
            arguments: ["--verbose", "http://127.0.0.1:9/w"], readStandardInput: { Data() }, httpClient: http)
        #expect(text.output.contains("wrapper 1 of the chain:"))
        #expect(text.output.contains("tracking start: http://t.test/w-start"))
    }
}
