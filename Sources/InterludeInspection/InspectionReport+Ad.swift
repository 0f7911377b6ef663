import Foundation
import InterludeVAST

extension InspectionReport {
    /// `<Extension>` (or `<CreativeExtension>`): its type, other attributes and raw XML.
    package struct ExtensionReport: Codable, Equatable {
        package var type: String?
        package var attributes: [String: String]?
        package var rawXML: String
    }

    package struct VerificationReport: Codable, Equatable {
        package struct JavaScriptResource: Codable, Equatable {
            package var apiFramework: String?
            package var browserOptional: Bool?
            package var url: String
        }

        package struct ExecutableResource: Codable, Equatable {
            package var apiFramework: String?
            package var type: String?
            package var url: String
        }

        package var vendor: String?
        package var javaScriptResources: [JavaScriptResource]?
        package var executableResources: [ExecutableResource]?
        /// `VerificationParameters`, as written.
        package var parameters: String?
        package var tracking: [TrackingReport]?
    }

    package struct PricingReport: Codable, Equatable {
        package var model: String?
        package var currency: String?
        package var value: String
    }

    package struct CategoryReport: Codable, Equatable {
        package var authority: String?
        package var value: String
    }

    package struct AdvertiserReport: Codable, Equatable {
        package var id: String?
        package var name: String
    }

    package struct SurveyReport: Codable, Equatable {
        package var type: String?
        package var url: String
    }

    package struct ViewableImpressionReport: Codable, Equatable {
        package var id: String?
        package var viewable: [String]?
        package var notViewable: [String]?
        package var viewUndetermined: [String]?
    }

    package struct AdReport: Codable, Equatable {
        package var id: String?
        package var sequence: Int?
        /// `inline` or `wrapper`.
        package var kind: String
        package var adSystem: String?
        package var title: String?
        /// Seconds, inline linear only.
        package var duration: Double?
        package var skipOffset: String?
        package var uiHideable: Bool?
        package var vastAdTagURI: String?
        /// The media files of the first linear creative (what the SDK chooses from).
        package var mediaFiles: [MediaFileReport]
        package var clickThrough: String?
        /// How many impression URLs (``impressionURLs`` lists them).
        package var impressions: Int
        /// Tracking URL counts per event type (linear, non-linear and companion).
        package var trackingEvents: [String: Int]
        package var errorURLs: [String]
        package var playable: Bool
        /// Ids of the wrappers that led to this ad, outermost first (URL mode).
        package var wrapperChain: [String]? = nil

        // Everything else the document holds.
        package var adSystemVersion: String? = nil
        package var adType: String? = nil
        package var conditionalAd: Bool? = nil
        package var adServingID: String? = nil
        package var description: String? = nil
        package var advertiser: AdvertiserReport? = nil
        package var pricing: PricingReport? = nil
        package var categories: [CategoryReport]? = nil
        package var blockedAdCategories: [CategoryReport]? = nil
        package var expires: Int? = nil
        package var surveys: [SurveyReport]? = nil
        package var impressionURLs: [URLReport]? = nil
        package var viewableImpression: ViewableImpressionReport? = nil
        package var verifications: [VerificationReport]? = nil
        package var extensions: [ExtensionReport]? = nil
        package var creatives: [CreativeReport]? = nil
        package var followAdditionalWrappers: Bool? = nil
        package var allowMultipleAds: Bool? = nil
        package var fallbackOnNoAd: Bool? = nil
        /// URL mode: each wrapper that led to the ad, outermost first, with every URL it holds.
        package var wrappers: [AdReport]? = nil
    }
}

extension InspectionReport.ExtensionReport {
    package init(_ ext: VASTExtension) {
        self.init(type: ext.type, attributes: ext.attributes.isEmpty ? nil : ext.attributes, rawXML: ext.rawXML)
    }
}

extension InspectionReport.VerificationReport {
    package init(_ verification: Verification) {
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
    package init(_ category: AdCategory) { self.init(authority: category.authority, value: category.value) }
}

extension InspectionReport.PricingReport {
    package init?(_ pricing: Pricing?) {
        guard let pricing else { return nil }
        self.init(model: pricing.model, currency: pricing.currency, value: pricing.value)
    }
}

extension InspectionReport.ViewableImpressionReport {
    package init?(_ viewable: ViewableImpression?) {
        guard let viewable else { return nil }
        self.init(
            id: viewable.id, viewable: nonEmpty(viewable.viewable), notViewable: nonEmpty(viewable.notViewable),
            viewUndetermined: nonEmpty(viewable.viewUndetermined))
    }
}

extension InspectionReport.AdReport {
    package init(_ ad: Ad) {
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
                playable: Self.hasPlayableMedia(linear) || hasNonLinear)
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
