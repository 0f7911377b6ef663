import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

/// Hand-checked values from `shared/corpus/vast-client-js` (read from the XML).
@Suite("Corpus: vast-client-js")
struct CorpusVASTClientTests {
    @Test func sampleHasPodAdAndBuffetAd() throws {
        let vast = try corpusVAST("vast-client-js/sample.xml")
        #expect(vast.version == "4.3")
        #expect(vast.ads.map(\.id) == ["ad_id_0001", "ad_id_0002"])
        #expect(vast.pod.map(\.id) == ["ad_id_0001"])
        #expect(vast.buffet.map(\.id) == ["ad_id_0002"])
    }

    @Test func sampleInlineFields() throws {
        let inLine = try #require(try corpusVAST("vast-client-js/sample.xml").ads[0].inLine)
        #expect(inLine.adServingID == "a532d16d-4d7f-4440-bd29-2ec0e693fc80")
        #expect(inLine.adSystem == AdSystem(name: "AdServer", version: "2.0"))
        #expect(inLine.adTitle == "Ad title")
        #expect(inLine.advertiser == Advertiser(id: "advertiser-desc", name: "Advertiser name"))
        #expect(inLine.description == "Description text")
        #expect(inLine.pricing == Pricing(model: "CPM", currency: "USD", value: "1.09"))
        #expect(inLine.surveys == [Survey(url: "http://example.com/survey")])
        #expect(inLine.errors == ["http://example.com/error_[ERRORCODE]"])
        #expect(inLine.impressions.map(\.id) == ["sample-impression1", "sample-impression2", "sample-impression3"])
        #expect(inLine.impressions[0].url == "http://example.com/impression1_asset:[ASSETURI]_[CACHEBUSTING]")
        #expect(inLine.creatives.count == 3)
    }

    @Test func sampleVerifications() throws {
        let inLine = try #require(try corpusVAST("vast-client-js/sample.xml").ads[0].inLine)
        #expect(inLine.adVerifications.map(\.vendor) == ["company.com-omid", "company2.com-omid"])
        #expect(
            inLine.adVerifications[0].javaScriptResources
                == [.init(apiFramework: "omid", browserOptional: true, url: "http://example.com/omid1")])
        #expect(inLine.adVerifications[1].javaScriptResources[0].browserOptional == false)
        #expect(inLine.adVerifications[1].verificationParameters == "test-verification-parameter")
    }

    @Test func sampleLinearCreative() throws {
        let creative = try corpusVAST("vast-client-js/sample.xml").ads[0].creatives[0]
        #expect(creative.id == "id130984")
        #expect(creative.adID == "adId345690")
        #expect(creative.sequence == 1)
        #expect(creative.universalAdIDs == [UniversalAdID(idRegistry: "daily-motion-L1", value: "Linear-12345")])
        let linear = try #require(creative.linear)
        // 00:01:30.123
        #expect(linear.duration == VASTTime(milliseconds: 90_123))
        #expect(linear.skipOffset == nil)
        #expect(linear.trackingEvents.count == 8)
        #expect(linear.trackingURLs(for: .midpoint) == ["http://example.com/linear-midpoint"])
        let progress = linear.trackingEvents.filter { $0.event == .progress }
        #expect(progress.map(\.offset) == [.time(VASTTime(milliseconds: 30_000)), .percent(60)])
        #expect(progress[1].url == "http://example.com/linear-progress-60%")
        let clicks = try #require(linear.videoClicks)
        #expect(
            clicks.clickThrough
                == ClickURL(id: "click-through", url: "http://example.com/linear-clickthrough_adplayhead:[ADPLAYHEAD]"))
        #expect(clicks.clickTracking.map(\.id) == ["video-click-1", "video-click-2"])
        #expect(clicks.customClicks == [ClickURL(id: "custom-click-1", url: "http://example.com/linear-customclick")])
    }

    @Test func sampleMediaFilesMezzanineAndIcon() throws {
        let linear = try #require(try corpusVAST("vast-client-js/sample.xml").ads[0].linear)
        #expect(linear.mediaFiles.count == 2)
        let mp4 = linear.mediaFiles[0]
        #expect(mp4.url == "http://example.com/linear-asset.mp4")
        #expect(mp4.delivery == .progressive)
        #expect(mp4.type == "video/mp4")
        #expect(mp4.bitrate == 849)
        #expect(mp4.width == 512 && mp4.height == 288)
        #expect(mp4.scalable == true)
        #expect(linear.mediaFiles[1].apiFramework == "VPAID")
        #expect(linear.mezzanines.count == 1)
        #expect(linear.mezzanines[0].id == "mezzanine-id-165468451")
        #expect(linear.mezzanines[0].codec == "h264")
        #expect(linear.mezzanines[0].fileSize == 700)
        #expect(linear.mezzanines[0].width == 1080 && linear.mezzanines[0].height == 720)
        let icon = try #require(linear.icons.first)
        #expect(icon.program == "ad1")
        #expect(icon.width == 60 && icon.height == 20)
        #expect(icon.xPosition == "left" && icon.yPosition == "bottom")
        #expect(icon.duration == VASTTime(milliseconds: 90_000))
        #expect(icon.offset == VASTTime(milliseconds: 15_000))
        #expect(icon.pxratio == "2")
        #expect(
            icon.resources == [.staticResource(creativeType: "image/gif", url: "http://example.com/linear-icon.gif")])
        #expect(icon.viewTracking == ["http://example.com/linear-viewtracking"])
        #expect(icon.clickThrough == "http://example.com/linear-clickthrough")
        #expect(icon.clickTracking.map(\.id) == ["icon-click-1", "icon-click-2"])
    }

    @Test func sampleCompanionsAndNonLinear() throws {
        let vast = try corpusVAST("vast-client-js/sample.xml")
        let companionCreative = vast.ads[0].creatives[1]
        // Written `AdID` in the document.
        #expect(companionCreative.adID == "adId345691")
        let companions = try #require(companionCreative.companionAds).companions
        #expect(companions.count == 3)
        #expect(companions[0].width == 300 && companions[0].height == 60)
        #expect(
            companions[0].resources == [
                .staticResource(creativeType: "image/jpeg", url: "http://example.com/companion1-static-resource")
            ])
        #expect(companions[0].altText == "Sample Alt Text Content!!!!")
        #expect(
            companions[0].clickTracking == [
                ClickURL(id: "123", url: "http://example.com/companion1-clicktracking-first"),
                ClickURL(url: "http://example.com/companion1-clicktracking-second"),
            ])
        #expect(companions[1].resources == [.iframe(url: "http://www.example.com/companion2-example.php")])
        #expect(companions[1].clickThrough == "http://www.example.com/companion2-clickthrough")
        #expect(
            companions[2].resources == [
                .html("<a href=\"http://www.example.com\" target=\"_blank\">Some call to action HTML!</a>")
            ])
        let nonLinearAds = try #require(vast.ads[0].creatives[2].nonLinearAds)
        let nonLinear = try #require(nonLinearAds.nonLinears.first)
        #expect(nonLinear.expandedWidth == 600 && nonLinear.expandedHeight == 400)
        #expect(nonLinear.scalable == false && nonLinear.maintainAspectRatio == true)
        #expect(nonLinear.minSuggestedDuration == VASTTime(milliseconds: 100_000))
        #expect(nonLinear.apiFramework == "someAPI")
        #expect(nonLinear.adParameters == AdParameters(value: "{\"key\":\"value\"}"))
        #expect(nonLinear.clickTracking.count == 2)
        #expect(nonLinearAds.trackingEvents.count == 6)
    }

    @Test func sampleExtensionsKeepRawXML() throws {
        let extensions = try corpusVAST("vast-client-js/sample.xml").ads[0].extensions
        #expect(extensions.map(\.type) == ["Pricing", "Count", nil])
        #expect(extensions[0].rawXML.hasPrefix("<Price model=\"CPM\" currency=\"USD\" source=\"someone\">"))
        #expect(extensions[1].rawXML.contains("<![CDATA[ 4 ]]>"))
        #expect(extensions[2].rawXML == "{ foo: bar }")
    }

    @Test func sampleSecondAdSkippableWithBareSecondsDuration() throws {
        let result = try VASTParser().parseVAST(Corpus.data("vast-client-js/sample.xml"))
        let ad = result.document.ads[1]
        #expect(ad.creatives[0].adID == "adId221144")  // written `adID`
        #expect(ad.creatives[0].apiFramework == "VPAID")
        let linear = try #require(ad.linear)
        #expect(linear.skipOffset == .time(VASTTime(milliseconds: 10_000)))
        // `<Duration>30</Duration>` is not HH:MM:SS: read as 30 s with a warning.
        #expect(linear.duration == VASTTime(milliseconds: 30_000))
        #expect(result.diagnostics.contains { $0.message.contains("Duration \"30\"") && $0.line == 152 })
    }

    @Test func sampleIsRejectedInStrictModeForItsDuration() throws {
        #expect(throws: VASTError.self) { try corpusVAST("vast-client-js/sample.xml", mode: .strict) }
    }

    @Test func inlineLinear() throws {
        let vast = try corpusVAST("vast-client-js/inline-linear.xml")
        let ad = try #require(vast.ads.first)
        #expect(ad.id == "20001")
        let inLine = try #require(ad.inLine)
        #expect(inLine.adSystem == AdSystem(name: "iabtechlab", version: "4.0"))
        #expect(inLine.pricing == Pricing(model: "cpm", currency: "USD", value: "25.00"))
        #expect(inLine.impressions == [Impression(id: "Impression-ID", url: "http://example.com/track/impression")])
        let linear = try #require(ad.linear)
        #expect(linear.duration == VASTTime(milliseconds: 16_000))
        #expect(linear.trackingEvents.first?.offset == .time(VASTTime(milliseconds: (9 * 3600 + 15 * 60 + 23) * 1000)))
        let file = try #require(linear.mediaFiles.first)
        #expect(file.id == "5241")
        #expect(file.url == "https://iabtechlab.com/wp-content/uploads/2016/07/VAST-4.0-Short-Intro.mp4")
        #expect(file.minBitrate == 360 && file.maxBitrate == 1080)
        #expect(file.scalable == true && file.maintainAspectRatio == true)
        #expect(file.codec == "0")
        #expect(linear.videoClicks?.clickTracking == [ClickURL(id: "blog", url: "https://iabtechlab.com")])
        #expect(linear.videoClicks?.clickThrough == nil)
        #expect(ad.extensions.map(\.type) == ["iab-Count"])
        #expect(ad.extensions[0].childText(named: "total_available") == "2")
    }

    @Test func emptyNoAdHasOnlyRootError() throws {
        let vast = try corpusVAST("vast-client-js/empty-no-ad.xml")
        #expect(vast.ads.isEmpty)
        #expect(vast.errors == ["http://example.com/empty-no-ad"])
    }

    @Test func emptyNoCreativeKeepsInlineErrorAndExtension() throws {
        let result = try VASTParser().parseVAST(Corpus.data("vast-client-js/empty-no-creative.xml"))
        let inLine = try #require(result.document.ads.first?.inLine)
        #expect(inLine.adTitle == "NO AD")
        #expect(inLine.creatives.isEmpty)
        #expect(inLine.errors == ["http://example.com/empty-no-creative_inline-error"])
        #expect(inLine.extensions.first?.childText(named: "paramEmptyNoCreative") == "valueEmptyNoCreative")
        #expect(result.diagnostics.contains { $0.message == "<InLine> has no Creative" })
    }

    @Test func invalidXMLFileIsError100() throws {
        let error = try #require(
            parseError(String(decoding: Corpus.data("vast-client-js/invalid-xmlfile.xml"), as: UTF8.self)))
        #expect(error.code == .xmlParsingError)
        #expect(error.line == 1 && error.column == 1)
    }

    @Test func outdatedVASTIsError102() throws {
        let error = try #require(
            parseError(String(decoding: Corpus.data("vast-client-js/outdated-vast.xml"), as: UTF8.self)))
        #expect(error.code == .unsupportedVersion)
    }

    @Test func vpaidCreativeKeepsApiFrameworkAndHTMLCompanions() throws {
        let ad = try #require(try corpusVAST("vast-client-js/vpaid.xml").ads.first)
        #expect(ad.id == "VPAID")
        // `<Impression></Impression>` is empty: nothing to fire.
        #expect(ad.inLine?.impressions.isEmpty == true)
        let file = try #require(ad.linear?.mediaFiles.first)
        #expect(file.apiFramework == "VPAID")
        #expect(file.type == "application/javascript")
        #expect(file.url.hasSuffix("LR_FORMAT=application/javascript"))
        #expect(ad.linear?.duration == nil)
        let companions = try #require(ad.creatives[1].companionAds).companions
        #expect(companions.map(\.width) == [300, 300, 728])
        #expect(
            companions[2].resources.first
                == .html(
                    "<div id=\"lr_comp_728x90\" style=\" width: 728px; height: 90px; display: none;\"></div>"))
    }

    @Test func vpaid2FlashMediaFile() throws {
        let ad = try #require(try corpusVAST("vast-client-js/vpaid2.xml").ads.first)
        #expect(ad.id == "preroll-1")
        #expect(ad.inLine?.adTitle == "5773100")
        let file = try #require(ad.linear?.mediaFiles.first)
        #expect(file.type == "application/x-shockwave-flash")
        #expect(file.width == 370 && file.height == 270)
        #expect(file.delivery == nil)
        #expect(ad.linear?.duration == VASTTime(milliseconds: 1000))
        #expect(ad.creatives[1].companionAds?.companions.first?.id == "573242")
    }

    @Test func wrapperAChainsToWrapperB() throws {
        let vast = try corpusVAST("vast-client-js/wrapper-a.xml")
        #expect(vast.ads.map(\.id) == ["4321", "2032"])
        let wrapper = try #require(vast.ads[0].wrapper)
        #expect(wrapper.vastAdTagURI == "wrapper-b.xml")
        #expect(wrapper.errors == ["http://example.com/wrapperA-error"])
        #expect(
            wrapper.impressions == [
                Impression(id: "wrapper-a-impression", url: "http://example.com/wrapperA-impression")
            ])
        #expect(wrapper.creatives.map(\.id) == ["a:ca1", "a:na1", "a:la1", "a:la2"])
        let firstLinear = try #require(wrapper.creatives[2].linear)
        #expect(firstLinear.duration == nil)
        #expect(firstLinear.trackingEvents.map(\.event) == [.start, .progress, .progress, .complete])
        #expect(
            firstLinear.videoClicks?.customClicks == [
                ClickURL(id: "123", url: "http://example.com/wrapperA-linear-customclick")
            ])
        #expect(wrapper.creatives[3].linear?.trackingEvents[1].offset == .percent(90))
        #expect(wrapper.extensions.first?.type == "WrapperExtension")
        #expect(vast.ads[1].wrapper?.vastAdTagURI == "vpaid.xml")
        let companion = try #require(vast.ads[1].creatives[0].companionAds?.companions.first)
        #expect(companion.assetWidth == 250 && companion.assetHeight == 200)
        #expect(companion.expandedWidth == 350 && companion.expandedHeight == 250)
    }

    @Test func wrapperBHasTwoImpressionsAndClickThrough() throws {
        let wrapper = try #require(try corpusVAST("vast-client-js/wrapper-b.xml").ads.first?.wrapper)
        #expect(wrapper.vastAdTagURI == "sample.xml")
        #expect(wrapper.impressions.map(\.id) == ["wrapper-b-impression1", "wrapper-b-impression2"])
        let linear = try #require(wrapper.creatives.last?.linear)
        #expect(linear.videoClicks?.clickThrough?.url == "http://example.com/wrapperB-linear-clickthrough")
        #expect(
            linear.videoClicks?.clickTracking == [
                ClickURL(id: "WRAP", url: "http://example.com/wrapperB-linear-clicktracking")
            ])
    }

    @Test func legacyVASTAdTagURLIsRead() throws {
        let vast = try corpusVAST("vast-client-js/wrapper-legacy.xml")
        #expect(vast.version == "2.0")
        #expect(vast.errors == ["http://example.com/wrapper-error"])
        let wrapper = try #require(vast.ads.first?.wrapper)
        #expect(wrapper.vastAdTagURI == "inline-linear.xml")
        #expect(wrapper.errors == ["http://example.com/wrapper-error"])
        #expect(wrapper.impressions.map(\.url) == ["http://example.com/wrapper-impression"])
        #expect(wrapper.creatives[0].companionAds?.companions.first?.adParameters?.value == "campaign_id=10446")
        #expect(wrapper.creatives[1].linear?.trackingURLs(for: .start) == ["http://example.com/wrapper-start"])
    }

    @Test func wrapperEmptyPointsAtEmptyNoAd() throws {
        let wrapper = try #require(try corpusVAST("vast-client-js/wrapper-empty.xml").ads.first?.wrapper)
        #expect(wrapper.vastAdTagURI == "empty-no-ad.xml")
        #expect(wrapper.errors == ["http://example.com/wrapper-empty_wrapper-error"])
        #expect(wrapper.extensions.first?.childText(named: "paramWrapperEmptyNoAd") == "valueWrapperEmptyNoAd")
    }

    @Test func wrapperEmptyNoCreative() throws {
        let wrapper = try #require(try corpusVAST("vast-client-js/wrapper-empty-no-creative.xml").ads.first?.wrapper)
        #expect(wrapper.vastAdTagURI == "empty-no-creative.xml")
        #expect(wrapper.creatives.count == 1)
        #expect(
            wrapper.creatives[0].linear?.videoClicks?.clickTracking.map(\.url) == [
                "http://example.com/wrapper-clicktracking"
            ])
    }

    @Test func wrapperUnavailableURL() throws {
        let wrapper = try #require(try corpusVAST("vast-client-js/wrapper-unavailable-url.xml").ads.first?.wrapper)
        #expect(wrapper.vastAdTagURI == "invalid-url")
        #expect(wrapper.impressions.map(\.url) == ["http://example.com/wrapper-invalid-xmlfile_impression"])
    }

    @Test func wrapperMultipleAdsIsPodPlusBuffet() throws {
        let vast = try corpusVAST("vast-client-js/wrapper-multiple-ads.xml")
        #expect(vast.ads.map(\.id) == ["201", "20011", "20012", "2032"])
        #expect(vast.pod.map(\.id) == ["20011", "20012"])
        #expect(vast.buffet.map(\.id) == ["201", "2032"])
        #expect(vast.ads.allSatisfy { $0.wrapper?.allowMultipleAds == true })
        #expect(
            vast.ads.map { $0.wrapper?.vastAdTagURI } == ["sample.xml", "vpaid.xml", "inline-linear.xml", "vpaid2.xml"])
    }

    @Test func wrapperAttributesInEveryForm() throws {
        let vast = try corpusVAST("vast-client-js/wrapper-attributes-multiple-ads.xml")
        let wrappers = vast.ads.compactMap(\.wrapper)
        #expect(vast.ads.map(\.id) == ["201", "202", "203", "204"])
        #expect(wrappers.map(\.allowMultipleAds) == [nil, false, true, true])  // "1" reads as true
        #expect(wrappers.map(\.followAdditionalWrappers) == [nil, false, true, false])  // "True" too
    }
}
