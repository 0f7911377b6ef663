import InterludeVAST

/// Generates random but valid VAST and VMAP models for round-trip property
/// tests. "Valid" means: every URL is non-empty, every text value is already
/// trimmed (the parser trims), and raw extension XML is well-formed.
public struct ModelGenerator {
    public var random: SeededRandom

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    // MARK: - Primitives

    public mutating func chance(_ probability: Double = 0.5) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    public mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Text with the characters that break naive writers: markup, quotes,
    /// `]]>`, macros, non-ASCII; trimmed.
    public mutating func text(maxLength: Int = 24) -> String {
        let pieces = [
            "a", "Z", "0", "9", " ", "&", "<", ">", "\"", "'", "]]>", "]]", "[ERRORCODE]", "é", "漢", "🎬", "%20", "=",
            "?", "/", ";", "\t", "\n", "&amp;", "<![CDATA[", "x",
        ]
        var result = ""
        for _ in 0..<count(0...maxLength / 2) { result += pieces.randomElement(using: &random)! }
        return trimmed(result)
    }

    public mutating func optionalText() -> String? { chance(0.6) ? text() : nil }

    /// A non-empty URL-like string.
    public mutating func url() -> String {
        let hosts = ["http://127.0.0.1:8080", "https://ads.example.test", "//cdn.example.test"]
        return hosts.randomElement(using: &random)! + "/" + [
            "track", "imp", "media.mp4", "x?a=1&b=[CACHEBUSTING]",
            "e?c=[ERRORCODE]", "p]]>q", "é/漢",
        ].randomElement(using: &random)! + String(count(0...999))
    }

    public mutating func urls(_ range: ClosedRange<Int> = 0...3) -> [String] { (0..<count(range)).map { _ in url() } }

    public mutating func optionalInt() -> Int? { chance(0.5) ? Int.random(in: -5...100_000, using: &random) : nil }

    public mutating func optionalBool() -> Bool? { chance(0.5) ? chance() : nil }

    public mutating func time() -> VASTTime { VASTTime(milliseconds: count(0...36_000_000)) }

    public mutating func offset() -> VASTOffset {
        chance() ? .time(time()) : .percent(Double(count(0...1000)) / 10)
    }

    /// A trimmed, well-formed XML fragment.
    public mutating func rawXML() -> String {
        switch count(0...3) {
        case 0: return "<UiHideable>\(chance() ? "1" : "0")</UiHideable>"
        case 1: return "<Custom a=\"b &amp; c\">text &lt; more<![CDATA[ raw ]]></Custom>"
        case 2: return "plain &amp; text"
        default: return ""
        }
    }

    private func trimmed(_ value: String) -> String {
        var scalars = Substring(value).unicodeScalars
        while let first = scalars.first, [" ", "\t", "\n", "\r"].contains(first) { scalars.removeFirst() }
        while let last = scalars.last, [" ", "\t", "\n", "\r"].contains(last) { scalars.removeLast() }
        return String(scalars)
    }

    // MARK: - VAST

    public mutating func vastDocument() -> VASTDocument {
        VASTDocument(
            version: ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"].randomElement(using: &random)!,
            ads: (0..<count(0...3)).map { _ in ad() }, errors: urls(0...2))
    }

    public mutating func ad() -> Ad {
        Ad(
            id: optionalText(), sequence: chance() ? count(1...5) : nil, conditionalAd: optionalBool(),
            adType: chance(0.3)
                ? Ad.AdType(rawValue: ["video", "audio", "hybrid"].randomElement(using: &random)!) : nil,
            content: chance(0.7) ? .inLine(inLine()) : .wrapper(wrapper()))
    }

    public mutating func inLine() -> InLine {
        InLine(
            adSystem: chance(0.9) ? AdSystem(name: text(), version: optionalText()) : nil,
            adTitle: optionalText(), adServingID: optionalText(),
            impressions: (0..<count(0...3)).map { _ in Impression(id: optionalText(), url: url()) },
            categories: (0..<count(0...2)).map { _ in AdCategory(authority: optionalText(), value: text()) },
            description: optionalText(),
            advertiser: chance() ? Advertiser(id: optionalText(), name: text()) : nil,
            pricing: chance() ? Pricing(model: optionalText(), currency: optionalText(), value: text()) : nil,
            surveys: (0..<count(0...1)).map { _ in Survey(type: optionalText(), url: url()) },
            errors: urls(0...2), viewableImpression: chance(0.3) ? viewableImpression() : nil,
            adVerifications: (0..<count(0...2)).map { _ in verification() },
            expires: optionalInt(), creatives: (0..<count(0...3)).map { _ in creative() },
            extensions: extensions())
    }

    public mutating func wrapper() -> Wrapper {
        Wrapper(
            adSystem: AdSystem(name: text(), version: optionalText()), vastAdTagURI: chance(0.9) ? url() : nil,
            impressions: (0..<count(0...2)).map { _ in Impression(id: optionalText(), url: url()) },
            errors: urls(0...2),
            pricing: chance(0.2) ? Pricing(model: "CPM", currency: "USD", value: "1.5") : nil,
            viewableImpression: chance(0.2) ? viewableImpression() : nil,
            adVerifications: (0..<count(0...1)).map { _ in verification() },
            blockedAdCategories: (0..<count(0...2)).map { _ in AdCategory(authority: optionalText(), value: text()) },
            creatives: (0..<count(0...2)).map { _ in creative() }, extensions: extensions(),
            followAdditionalWrappers: optionalBool(), allowMultipleAds: optionalBool(), fallbackOnNoAd: optionalBool())
    }

    public mutating func viewableImpression() -> ViewableImpression {
        ViewableImpression(id: optionalText(), viewable: urls(), notViewable: urls(), viewUndetermined: urls())
    }

    public mutating func verification() -> Verification {
        Verification(
            vendor: optionalText(),
            javaScriptResources: (0..<count(0...2)).map { _ in
                .init(apiFramework: optionalText(), browserOptional: optionalBool(), url: url())
            },
            executableResources: (0..<count(0...1)).map { _ in
                .init(apiFramework: optionalText(), type: optionalText(), url: url())
            },
            verificationParameters: optionalText(), trackingEvents: trackingEvents())
    }

    public mutating func extensions() -> [VASTExtension] {
        (0..<count(0...2)).map { _ in
            var attributes: [String: String] = [:]
            if chance(0.3) { attributes["fallback_index"] = text() }
            return VASTExtension(
                type: chance(0.8) ? ["uiSettings", "geo", "waterfall"].randomElement(using: &random)! : nil,
                attributes: attributes, rawXML: rawXML())
        }
    }

    public mutating func trackingEvents() -> [TrackingEvent] {
        (0..<count(0...4)).map { _ in
            let name = ["start", "firstQuartile", "progress", "complete", "skip", "customEvent"].randomElement(
                using: &random)!
            return TrackingEvent(
                event: TrackingEventType(name), url: url(), offset: name == "progress" || chance(0.1) ? offset() : nil)
        }
    }

    public mutating func clickURL() -> ClickURL { ClickURL(id: optionalText(), url: url()) }

    public mutating func resources() -> [CreativeResource] {
        (0..<count(0...2)).map { _ in
            switch count(0...2) {
            case 0: return .staticResource(creativeType: optionalText(), url: url())
            case 1: return .iframe(url: url())
            default: return .html(text())
            }
        }
    }

    public mutating func creative() -> Creative {
        let kind: Creative.Kind?
        switch count(0...5) {
        case 0...2: kind = .linear(linear())
        case 3: kind = .nonLinearAds(nonLinearAds())
        case 4: kind = .companionAds(companionAds())
        default: kind = nil
        }
        return Creative(
            id: optionalText(), adID: optionalText(), sequence: optionalInt(), apiFramework: optionalText(),
            universalAdIDs: (0..<count(0...2)).map { _ in UniversalAdID(idRegistry: text(), value: text()) },
            creativeExtensions: extensions(), kind: kind)
    }

    public mutating func linear() -> Linear {
        Linear(
            duration: chance(0.9) ? time() : nil, skipOffset: chance() ? offset() : nil,
            mediaFiles: (0..<count(0...3)).map { _ in mediaFile() },
            mezzanines: (0..<count(0...1)).map { _ in
                Mezzanine(
                    url: url(), id: optionalText(), delivery: chance() ? .progressive : nil, type: optionalText(),
                    width: optionalInt(), height: optionalInt(), codec: optionalText(), fileSize: optionalInt(),
                    mediaType: optionalText())
            },
            interactiveCreativeFiles: (0..<count(0...1)).map { _ in
                InteractiveCreativeFile(
                    url: url(), type: optionalText(), apiFramework: optionalText(), variableDuration: optionalBool())
            },
            closedCaptionFiles: (0..<count(0...2)).map { _ in
                ClosedCaptionFile(url: url(), type: optionalText(), language: optionalText())
            },
            trackingEvents: trackingEvents(),
            videoClicks: chance(0.7)
                ? VideoClicks(
                    clickThrough: chance() ? clickURL() : nil,
                    clickTracking: (0..<count(0...2)).map { _ in clickURL() },
                    customClicks: (0..<count(0...1)).map { _ in clickURL() }) : nil,
            icons: (0..<count(0...1)).map { _ in icon() },
            adParameters: chance(0.3) ? AdParameters(xmlEncoded: optionalBool(), value: text()) : nil)
    }

    public mutating func mediaFile() -> MediaFile {
        MediaFile(
            url: url(), id: optionalText(),
            delivery: chance(0.8) ? (chance() ? .progressive : .streaming) : nil,
            type: chance(0.8)
                ? ["video/mp4", "video/webm", "application/x-mpegURL"].randomElement(using: &random)! : nil,
            width: optionalInt(), height: optionalInt(), codec: optionalText(), bitrate: optionalInt(),
            minBitrate: optionalInt(), maxBitrate: optionalInt(), scalable: optionalBool(),
            maintainAspectRatio: optionalBool(), fileSize: optionalInt(), mediaType: optionalText(),
            apiFramework: optionalText())
    }

    public mutating func icon() -> Icon {
        Icon(
            program: optionalText(), width: optionalInt(), height: optionalInt(),
            xPosition: chance() ? "left" : nil, yPosition: chance() ? "12" : nil,
            duration: chance() ? time() : nil, offset: chance() ? time() : nil, apiFramework: optionalText(),
            pxratio: optionalText(), altText: optionalText(), hoverText: optionalText(), resources: resources(),
            clickThrough: chance() ? url() : nil, clickTracking: (0..<count(0...2)).map { _ in clickURL() },
            clickFallbackImages: (0..<count(0...1)).map { _ in
                Icon.ClickFallbackImage(
                    width: optionalInt(), height: optionalInt(), altText: optionalText(), url: chance() ? url() : nil)
            },
            viewTracking: urls(0...2))
    }

    public mutating func nonLinearAds() -> NonLinearAds {
        NonLinearAds(
            nonLinears: (0..<count(0...2)).map { _ in
                NonLinear(
                    id: optionalText(), width: optionalInt(), height: optionalInt(), expandedWidth: optionalInt(),
                    expandedHeight: optionalInt(), scalable: optionalBool(), maintainAspectRatio: optionalBool(),
                    minSuggestedDuration: chance() ? time() : nil, apiFramework: optionalText(),
                    resources: resources(),
                    adParameters: chance(0.3) ? AdParameters(xmlEncoded: optionalBool(), value: text()) : nil,
                    clickThrough: chance() ? clickURL() : nil, clickTracking: (0..<count(0...2)).map { _ in clickURL() }
                )
            },
            trackingEvents: trackingEvents())
    }

    public mutating func companionAds() -> CompanionAds {
        CompanionAds(
            required: chance()
                ? CompanionAds.Requirement(rawValue: ["all", "any", "none"].randomElement(using: &random)!) : nil,
            companions: (0..<count(0...2)).map { _ in
                Companion(
                    id: optionalText(), width: optionalInt(), height: optionalInt(), assetWidth: optionalInt(),
                    assetHeight: optionalInt(), expandedWidth: optionalInt(), expandedHeight: optionalInt(),
                    apiFramework: optionalText(), adSlotID: optionalText(), pxratio: optionalText(),
                    renderingMode: optionalText(), resources: resources(),
                    adParameters: chance(0.3) ? AdParameters(xmlEncoded: optionalBool(), value: text()) : nil,
                    altText: optionalText(), clickThrough: chance() ? url() : nil,
                    clickTracking: (0..<count(0...2)).map { _ in clickURL() }, trackingEvents: trackingEvents())
            })
    }

    // MARK: - VMAP

    public mutating func vmapDocument() -> VMAPDocument {
        VMAPDocument(
            version: "1.0", adBreaks: (0..<count(0...4)).map { _ in adBreak() }, extensions: extensions())
    }

    public mutating func adBreak() -> AdBreak {
        let offsets: [BreakTimeOffset] = [
            .start, .end, .time(time()), .percent(Double(count(0...100))), .position(count(1...9)),
        ]
        var source: AdSource?
        if chance(0.9) {
            let content: AdSource.Content?
            switch count(0...3) {
            case 0: content = .vastAdData(vastDocument())
            case 1: content = .adTagURI(templateType: chance() ? "vast3" : nil, url: url())
            case 2: content = .customAdData(templateType: "custom", rawXML: rawXML())
            default: content = nil
            }
            source = AdSource(
                id: optionalText(), allowMultipleAds: optionalBool(), followRedirects: optionalBool(), content: content)
        }
        return AdBreak(
            timeOffset: offsets.randomElement(using: &random)!,
            breakTypes: Array(
                [AdBreak.BreakType.linear, .nonlinear, .display].shuffled(using: &random).prefix(count(1...3))),
            breakID: optionalText(), repeatAfter: chance(0.2) ? time() : nil, adSource: source,
            trackingEvents: (0..<count(0...3)).map { _ in
                BreakTrackingEvent(
                    event: [.breakStart, .breakEnd, .error].randomElement(using: &random)!, url: url())
            },
            extensions: extensions())
    }
}
