import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

/// Hand-checked values from `shared/corpus/videojs-vast` and `vmap-js`.
@Suite("Corpus: videojs-vast and vmap-js")
struct CorpusVideoJSAndVMAPTests {
    @Test func skippableLinearFromGoogle() throws {
        let vast = try corpusVAST("videojs-vast/vast_skip.xml")
        #expect(vast.version == "3.0")
        let ad = try #require(vast.ads.first)
        #expect(ad.id == "5926628810")
        #expect(ad.adSystem?.name == "GDFP")
        #expect(ad.inLine?.adTitle == "External - Single Inline Linear Skippable")
        #expect(ad.inLine?.impressions.count == 1)
        #expect(ad.creatives[0].id == "138382063765")
        #expect(ad.creatives[0].adID == "H0Hrk8zCNZI")
        let linear = try #require(ad.linear)
        #expect(linear.skipOffset == .time(VASTTime(milliseconds: 3000)))
        #expect(linear.isSkippable)
        #expect(linear.duration == VASTTime(milliseconds: 4000))
        #expect(linear.mediaFiles.map(\.width) == [640, 1280, 1280, 854])
        #expect(linear.mediaFiles.map(\.bitrate) == [143, 240, 262, 186])
        #expect(linear.trackingURLs(for: .skip).count == 1)
        #expect(
            linear.trackingEvents.filter { $0.event == .progress }.map(\.offset) == [
                .time(VASTTime(milliseconds: 5000)), .time(VASTTime(milliseconds: 30_000)),
            ])
        #expect(linear.videoClicks?.clickThrough?.id == "GDFP")
        #expect(ad.creatives[1].companionAds?.companions.first?.width == 300)
        let waterfall = try #require(ad.extensions.first)
        #expect(waterfall.type == "waterfall")
        #expect(waterfall.attributes == ["fallback_index": "0"])
        #expect(ad.extensions[1].childText(named: "BandwidthKbps") == "14660")
        #expect(ad.extensions[2].childText(named: "SkippableAdType") == "Generic")
    }

    @Test func nonSkippableGooglePreroll() throws {
        let vast = try corpusVAST("videojs-vast/vast.xml")
        let ad = try #require(vast.ads.first)
        #expect(ad.id == "709684336")
        #expect(ad.inLine?.adTitle == "External NCA1C1L1 Preroll")
        #expect(ad.linear?.skipOffset == nil)
        #expect(ad.linear?.mediaFiles.count == 1)
        #expect(ad.linear?.mediaFiles.first?.bitrate == 398)
        #expect(ad.inLine?.errors.first?.hasSuffix("label=videoplayfailed[ERRORCODE]") == true)
        #expect(ad.creatives.map(\.id) == ["57861016576", "57857370976"])
    }

    @Test func videojsInlineLinearIsVAST3() throws {
        let vast = try corpusVAST("videojs-vast/inline-linear.xml")
        #expect(vast.version == "3.0")
        #expect(vast.ads.first?.linear?.mediaFiles.first?.bitrate == 500)
        #expect(vast.ads.first?.inLine?.errors == ["http://example.com/error"])
    }

    @Test func videojsEmptyNoAdIsVAST2() throws {
        let vast = try corpusVAST("videojs-vast/empty-no-ad.xml")
        #expect(vast.version == "2.0")
        #expect(vast.ads.isEmpty)
        #expect(vast.errors == ["http://example.com/empty-no-ad"])
    }

    @Test func wrapperYieldingAPod() throws {
        let vast = try corpusVAST("videojs-vast/wrapper-ad-pod.xml")
        #expect(vast.isPod)
        #expect(vast.pod.map(\.sequence) == [1, 2])
        #expect(vast.pod.map(\.id) == ["20011", "20012"])
        #expect(vast.ads.allSatisfy { $0.wrapper?.vastAdTagURI == "inline-linear.xml" })
    }

    @Test func vmapWithFourAdTagBreaks() throws {
        let vmap = try corpusVMAP("videojs-vast/vmap.xml")
        #expect(vmap.version == "1.0")
        #expect(
            vmap.adBreaks.map(\.timeOffset) == [
                .start, .time(VASTTime(milliseconds: 3123)), .time(VASTTime(milliseconds: 6000)), .end,
            ])
        #expect(vmap.adBreaks.map(\.breakID) == ["preroll", "midroll", "midroll", "postroll"])
        let source = try #require(vmap.adBreaks[0].adSource)
        #expect(source.id == "preroll-ads")
        #expect(source.allowMultipleAds == false && source.followRedirects == true)
        #expect(source.content == .adTagURI(templateType: "vast3", url: "/fixtures/vast.xml"))
    }

    @Test func vmapWithInlineVASTWrappers() throws {
        let vmap = try corpusVMAP("videojs-vast/vmap-inline.xml")
        #expect(vmap.adBreaks.count >= 2)
        #expect(vmap.adBreaks[0].breakID == "8661748b-b25a-4569-b03e-9dd33a43b28c")
        #expect(vmap.adBreaks[1].timeOffset == .percent(50))
        guard case .vastAdData(let vast) = vmap.adBreaks[0].adSource?.content else {
            Issue.record("expected embedded VAST")
            return
        }
        #expect(vast.version == "3.0")
        #expect(vast.ads.first?.wrapper?.vastAdTagURI == "/fixtures/vast.xml")
        #expect(vast.ads.first?.adSystem?.name == "SMART AdServer")
    }

    @Test func correctVMAPBreaksAndTracking() throws {
        let vmap = try corpusVMAP("vmap-js/correct-vmap.xml")
        #expect(vmap.adBreaks.map(\.breakID) == ["mypre", "myid", "mypost"])
        #expect(vmap.adBreaks[1].timeOffset == .time(VASTTime(milliseconds: (10 * 60 + 23) * 1000 + 125)))
        #expect(vmap.adBreaks[0].trackingEvents.map(\.event) == [.breakStart, .breakEnd, .breakEnd, .error])
        #expect(vmap.adBreaks[0].trackingEvents[3].url == "http://server.com/error?[ERRORCODE]")
        #expect(vmap.adBreaks[0].adSource?.content == .vastAdData(VASTDocument(version: "3.0")))
        #expect(vmap.adBreaks[2].adSource?.content == .adTagURI(templateType: nil, url: "http://server.com/vast.xml"))
        #expect(vmap.adBreaks[2].adSource?.id == "3")
    }

    @Test func vmapBreakExtensionsKeepRawXMLAndAttributes() throws {
        let vmap = try corpusVMAP("vmap-js/correct-vmap-with-extension.xml")
        let extensions = vmap.adBreaks[0].extensions
        #expect(extensions.count == 2)
        #expect(
            extensions[0].attributes == [
                "extAttribute": "extAttribute content", "extAttribute2": "extAttribute2 content",
            ])
        #expect(extensions[0].rawXML.hasPrefix("Extension value"))
        #expect(extensions[0].childText(named: "Test") == "Test value")
        #expect(extensions[1].childText(named: "Child") == "Child value")
    }

    @Test func wrongVMAPRootIsError102() throws {
        let error = try #require(parseError(String(decoding: Corpus.data("vmap-js/incorrect-vmap.xml"), as: UTF8.self)))
        #expect(error.code == .unsupportedVersion)
        #expect(error.message.contains("WRONG"))
    }

    @Test func bareExtensionFragmentIsNotADocument() throws {
        let error = try #require(
            parseError(String(decoding: Corpus.data("vmap-js/parsing-example.xml"), as: UTF8.self)))
        #expect(error.code == .unsupportedVersion)
    }

    @Test func everyCorpusXMLFileParsesOrFailsWithACode() throws {
        let files = Corpus.files(withExtension: "xml")
        #expect(files.count >= 26)
        let expectedFailures: Set<String> = [
            "vast-client-js/invalid-xmlfile.xml", "vast-client-js/outdated-vast.xml", "vmap-js/incorrect-vmap.xml",
            "vmap-js/parsing-example.xml",
        ]
        for file in files {
            let data = try Corpus.data(file)
            do {
                _ = try VASTParser().parse(data)
                #expect(!expectedFailures.contains(file), "\(file) should not parse")
            } catch {
                #expect(expectedFailures.contains(file), "\(file): \(error)")
                #expect([100, 102].contains(error.code.rawValue))
            }
        }
    }
}
