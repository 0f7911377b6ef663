import Foundation
import InterludeVAST

extension InspectionReport {
    /// `<Extension>` (or `<CreativeExtension>`): its type, other attributes and raw XML.
    struct ExtensionReport: Codable, Equatable {
        var type: String?
        var attributes: [String: String]?
        var rawXML: String
    }

    struct VerificationReport: Codable, Equatable {
        struct JavaScriptResource: Codable, Equatable {
            var apiFramework: String?
            var browserOptional: Bool?
            var url: String
        }

        struct ExecutableResource: Codable, Equatable {
            var apiFramework: String?
            var type: String?
            var url: String
        }

        var vendor: String?
        var javaScriptResources: [JavaScriptResource]?
        var executableResources: [ExecutableResource]?
        /// `VerificationParameters`, as written.
        var parameters: String?
        var tracking: [TrackingReport]?
    }

    struct PricingReport: Codable, Equatable {
        var model: String?
        var currency: String?
        var value: String
    }

    struct CategoryReport: Codable, Equatable {
        var authority: String?
        var value: String
    }

    struct AdvertiserReport: Codable, Equatable {
        var id: String?
        var name: String
    }

    struct SurveyReport: Codable, Equatable {
        var type: String?
        var url: String
    }

    struct ViewableImpressionReport: Codable, Equatable {
        var id: String?
        var viewable: [String]?
        var notViewable: [String]?
        var viewUndetermined: [String]?
    }

    struct AdReport: Codable, Equatable {
        var id: String?
        var sequence: Int?
        /// `inline` or `wrapper`.
        var kind: String
        var adSystem: String?
        var title: String?
        /// Seconds, inline linear only.
        var duration: Double?
        var skipOffset: String?
        var uiHideable: Bool?
        var vastAdTagURI: String?
        /// The media files of the first linear creative (what the SDK chooses from).
        var mediaFiles: [MediaFileReport]
        var clickThrough: String?
        /// How many impression URLs (``impressionURLs`` lists them).
        var impressions: Int
        /// Tracking URL counts per event type (linear, non-linear and companion).
        var trackingEvents: [String: Int]
        var errorURLs: [String]
        var playable: Bool
        /// Ids of the wrappers that led to this ad, outermost first (URL mode).
        var wrapperChain: [String]? = nil

        // Everything else the document holds.
        var adSystemVersion: String? = nil
        var adType: String? = nil
        var conditionalAd: Bool? = nil
        var adServingID: String? = nil
        var description: String? = nil
        var advertiser: AdvertiserReport? = nil
        var pricing: PricingReport? = nil
        var categories: [CategoryReport]? = nil
        var blockedAdCategories: [CategoryReport]? = nil
        var expires: Int? = nil
        var surveys: [SurveyReport]? = nil
        var impressionURLs: [URLReport]? = nil
        var viewableImpression: ViewableImpressionReport? = nil
        var verifications: [VerificationReport]? = nil
        var extensions: [ExtensionReport]? = nil
        var creatives: [CreativeReport]? = nil
        var followAdditionalWrappers: Bool? = nil
        var allowMultipleAds: Bool? = nil
        var fallbackOnNoAd: Bool? = nil
        /// URL mode: each wrapper that led to the ad, outermost first, with every URL it holds.
        var wrappers: [AdReport]? = nil
    }
}

extension InspectionReport.ExtensionReport {
    init(_ ext: VASTExtension) {
        self.init(type: ext.type, attributes: ext.attributes.isEmpty ? nil : ext.attributes, rawXML: ext.rawXML)
    }
}

extension InspectionReport.VerificationReport {
    init(_ verification: Verification) {
        self.init(
            vendor: verification.vendor,
            javaScriptResources: nonEmpty(
                verification.javaScriptResources.map {
                    JavaScriptResource(apiFramework: $0.apiFramework, browserOptional: $0.browserOptional, url: $0.url)
                }),
            executableResources: nonEmpty(
                verification.executableResources.map {
                    ExecutableResource(apiFramework: $0.apiFramework, type: $0.type, url: $0.url)
                }),
            parameters: verification.verificationParameters,
            tracking: nonEmpty(verification.trackingEvents.map { .init($0, duration: nil) }))
    }
}

extension InspectionReport.CategoryReport {
    init(_ category: AdCategory) { self.init(authority: category.authority, value: category.value) }
}

extension InspectionReport.PricingReport {
    init?(_ pricing: Pricing?) {
        guard let pricing else { return nil }
        self.init(model: pricing.model, currency: pricing.currency, value: pricing.value)
    }
}

extension InspectionReport.ViewableImpressionReport {
    init?(_ viewable: ViewableImpression?) {
        guard let viewable else { return nil }
        self.init(
            id: viewable.id, viewable: nonEmpty(viewable.viewable), notViewable: nonEmpty(viewable.notViewable),
            viewUndetermined: nonEmpty(viewable.viewUndetermined))
    }
}

extension InspectionReport.AdReport {
    init(_ ad: Ad) {
        let linear = ad.linear
        var tracking: [String: Int] = [:]
        for creative in ad.creatives {
            switch creative.kind {
            case .linear(let linear):
                for event in linear.trackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
            case .nonLinearAds(let ads):
                for event in ads.trackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
            case .companionAds(let ads):
                for event in ads.companions.flatMap(\.trackingEvents) {
                    tracking[event.event.rawValue, default: 0] += 1
                }
            case nil:
                break
            }
        }
        let mediaFiles = (linear?.mediaFiles ?? []).map(InspectionReport.MediaFileReport.init)
        let impressions: [Impression]
        switch ad.content {
        case .inLine(let inLine):
            impressions = inLine.impressions
            let hasNonLinear = ad.creatives.contains { !($0.nonLinearAds?.nonLinears.isEmpty ?? true) }
            self.init(
                id: ad.id, sequence: ad.sequence, kind: "inline", adSystem: inLine.adSystem?.name,
                title: inLine.adTitle, duration: linear?.duration?.seconds, skipOffset: linear?.skipOffset?.formatted,
                uiHideable: ad.uiHideable, vastAdTagURI: nil, mediaFiles: mediaFiles,
                clickThrough: linear?.videoClicks?.clickThrough?.url, impressions: inLine.impressions.count,
                trackingEvents: tracking, errorURLs: inLine.errors,
                playable: !mediaFiles.isEmpty || hasNonLinear)
            adServingID = inLine.adServingID
            description = inLine.description
            advertiser = inLine.advertiser.map { InspectionReport.AdvertiserReport(id: $0.id, name: $0.name) }
            pricing = InspectionReport.PricingReport(inLine.pricing)
            categories = nonEmpty(inLine.categories.map(InspectionReport.CategoryReport.init))
            expires = inLine.expires
            surveys = nonEmpty(inLine.surveys.map { InspectionReport.SurveyReport(type: $0.type, url: $0.url) })
            viewableImpression = InspectionReport.ViewableImpressionReport(inLine.viewableImpression)
            verifications = nonEmpty(inLine.adVerifications.map(InspectionReport.VerificationReport.init))
        case .wrapper(let wrapper):
            impressions = wrapper.impressions
            self.init(
                id: ad.id, sequence: ad.sequence, kind: "wrapper", adSystem: wrapper.adSystem?.name, title: nil,
                duration: nil, skipOffset: linear?.skipOffset?.formatted, uiHideable: ad.uiHideable,
                vastAdTagURI: wrapper.vastAdTagURI, mediaFiles: mediaFiles,
                clickThrough: linear?.videoClicks?.clickThrough?.url, impressions: wrapper.impressions.count,
                trackingEvents: tracking, errorURLs: wrapper.errors, playable: wrapper.vastAdTagURI != nil)
            pricing = InspectionReport.PricingReport(wrapper.pricing)
            blockedAdCategories = nonEmpty(wrapper.blockedAdCategories.map(InspectionReport.CategoryReport.init))
            viewableImpression = InspectionReport.ViewableImpressionReport(wrapper.viewableImpression)
            verifications = nonEmpty(wrapper.adVerifications.map(InspectionReport.VerificationReport.init))
            followAdditionalWrappers = wrapper.followAdditionalWrappers
            allowMultipleAds = wrapper.allowMultipleAds
            fallbackOnNoAd = wrapper.fallbackOnNoAd
        }
        adSystemVersion = ad.adSystem?.version
        adType = ad.adType?.rawValue
        conditionalAd = ad.conditionalAd
        impressionURLs = nonEmpty(impressions.map { InspectionReport.URLReport(id: $0.id, url: $0.url) })
        extensions = nonEmpty(ad.extensions.map(InspectionReport.ExtensionReport.init))
        creatives = nonEmpty(ad.creatives.map(InspectionReport.CreativeReport.init))
    }
}
