import Foundation
import InterludeVAST

/// Every creative of an ad as the inspector lists it: each URL with what it
/// is for, and every attribute the document gave. Lists that are empty and
/// values that are absent are left out of the JSON.
extension InspectionReport {
    /// A URL with its optional `id` (impressions, click tracking, custom clicks).
    struct URLReport: Codable, Equatable {
        var id: String?
        var url: String
    }

    /// One tracking URL and its event; `progress` (and any event with an
    /// offset) has the offset as written and, where it can be known, in seconds.
    struct TrackingReport: Codable, Equatable {
        var event: String
        var url: String
        var offset: String?
        var offsetSeconds: Double?
    }

    /// A creative resource: `static` (with `creativeType`), `iframe` or `html`.
    struct ResourceReport: Codable, Equatable {
        var kind: String
        var creativeType: String?
        var url: String?
        var html: String?
    }

    struct AdParametersReport: Codable, Equatable {
        var xmlEncoded: Bool?
        var value: String
    }

    struct MediaFileReport: Codable, Equatable {
        var url: String
        var id: String? = nil
        var type: String?
        var delivery: String?
        var width: Int?
        var height: Int?
        var codec: String? = nil
        /// Kbps, as written (`minBitrate`/`maxBitrate` for variable-bitrate files).
        var bitrate: Int?
        var minBitrate: Int? = nil
        var maxBitrate: Int? = nil
        var scalable: Bool? = nil
        var maintainAspectRatio: Bool? = nil
        var fileSize: Int? = nil
        var mediaType: String? = nil
        var apiFramework: String? = nil
    }

    struct MezzanineReport: Codable, Equatable {
        var url: String
        var id: String?
        var delivery: String?
        var type: String?
        var width: Int?
        var height: Int?
        var codec: String?
        var fileSize: Int?
        var mediaType: String?
    }

    struct InteractiveFileReport: Codable, Equatable {
        var url: String
        var type: String?
        var apiFramework: String?
        var variableDuration: Bool?
    }

    struct ClosedCaptionReport: Codable, Equatable {
        var url: String
        var type: String?
        var language: String?
    }

    struct IconReport: Codable, Equatable {
        struct FallbackImage: Codable, Equatable {
            var width: Int?
            var height: Int?
            var altText: String?
            var url: String?
        }

        var program: String?
        var width: Int?
        var height: Int?
        var xPosition: String?
        var yPosition: String?
        /// Seconds.
        var duration: Double?
        /// Seconds.
        var offset: Double?
        var apiFramework: String?
        var pxratio: String?
        var altText: String?
        var hoverText: String?
        var resources: [ResourceReport]?
        var clickThrough: String?
        var clickTracking: [URLReport]?
        var clickFallbackImages: [FallbackImage]?
        var viewTracking: [String]?
    }

    struct LinearReport: Codable, Equatable {
        /// Seconds.
        var duration: Double?
        var skipOffset: String?
        var mediaFiles: [MediaFileReport]?
        var mezzanines: [MezzanineReport]?
        var interactiveCreativeFiles: [InteractiveFileReport]?
        var closedCaptionFiles: [ClosedCaptionReport]?
        var tracking: [TrackingReport]?
        var clickThrough: URLReport?
        var clickTracking: [URLReport]?
        var customClicks: [URLReport]?
        var icons: [IconReport]?
        var adParameters: AdParametersReport?
    }

    struct NonLinearReport: Codable, Equatable {
        var id: String?
        var width: Int?
        var height: Int?
        var expandedWidth: Int?
        var expandedHeight: Int?
        var scalable: Bool?
        var maintainAspectRatio: Bool?
        /// Seconds.
        var minSuggestedDuration: Double?
        var apiFramework: String?
        var resources: [ResourceReport]?
        var adParameters: AdParametersReport?
        var clickThrough: URLReport?
        var clickTracking: [URLReport]?
    }

    struct NonLinearAdsReport: Codable, Equatable {
        var nonLinears: [NonLinearReport]?
        var tracking: [TrackingReport]?
    }

    struct CompanionReport: Codable, Equatable {
        var id: String?
        var width: Int?
        var height: Int?
        var assetWidth: Int?
        var assetHeight: Int?
        var expandedWidth: Int?
        var expandedHeight: Int?
        var apiFramework: String?
        var adSlotID: String?
        var pxratio: String?
        var renderingMode: String?
        var altText: String?
        var resources: [ResourceReport]?
        var adParameters: AdParametersReport?
        var clickThrough: String?
        var clickTracking: [URLReport]?
        var tracking: [TrackingReport]?
    }

    struct CompanionAdsReport: Codable, Equatable {
        /// `all`, `any` or `none`, as written.
        var required: String?
        var companions: [CompanionReport]?
    }

    struct UniversalAdIDReport: Codable, Equatable {
        var idRegistry: String
        var value: String
    }

    struct CreativeReport: Codable, Equatable {
        /// `linear`, `nonLinearAds`, `companionAds`, or `none` (a wrapper's tracking-only creative may have no body).
        var kind: String
        var id: String?
        var adID: String?
        var sequence: Int?
        var apiFramework: String?
        var universalAdIDs: [UniversalAdIDReport]?
        var extensions: [ExtensionReport]?
        var linear: LinearReport?
        var nonLinearAds: NonLinearAdsReport?
        var companionAds: CompanionAdsReport?
    }
}

/// nil for an empty list, so that JSON leaves it out.
func nonEmpty<Element>(_ elements: [Element]) -> [Element]? {
    elements.isEmpty ? nil : elements
}

extension InspectionReport.URLReport {
    init(_ click: ClickURL) { self.init(id: click.id, url: click.url) }
}

extension InspectionReport.TrackingReport {
    /// `duration` (seconds) turns a percentage offset into seconds.
    init(_ event: TrackingEvent, duration: Double?) {
        var seconds: Double?
        switch event.offset {
        case .time(let time)?: seconds = time.seconds
        case .percent(let percent)?: seconds = duration.map { ($0 * percent / 100 * 1000).rounded() / 1000 }
        case nil: seconds = nil
        }
        self.init(event: event.event.rawValue, url: event.url, offset: event.offset?.formatted, offsetSeconds: seconds)
    }
}

extension InspectionReport.ResourceReport {
    init(_ resource: CreativeResource) {
        switch resource {
        case .staticResource(let creativeType, let url):
            self.init(kind: "static", creativeType: creativeType, url: url, html: nil)
        case .iframe(let url): self.init(kind: "iframe", creativeType: nil, url: url, html: nil)
        case .html(let html): self.init(kind: "html", creativeType: nil, url: nil, html: html)
        }
    }
}

extension InspectionReport.AdParametersReport {
    init?(_ parameters: AdParameters?) {
        guard let parameters else { return nil }
        self.init(xmlEncoded: parameters.xmlEncoded, value: parameters.value)
    }
}

extension InspectionReport.MediaFileReport {
    init(_ file: MediaFile) {
        self.init(
            url: file.url, id: file.id, type: file.type, delivery: file.delivery?.rawValue, width: file.width,
            height: file.height, codec: file.codec, bitrate: file.bitrate, minBitrate: file.minBitrate,
            maxBitrate: file.maxBitrate, scalable: file.scalable, maintainAspectRatio: file.maintainAspectRatio,
            fileSize: file.fileSize, mediaType: file.mediaType, apiFramework: file.apiFramework)
    }
}

extension InspectionReport.IconReport {
    init(_ icon: Icon) {
        self.init(
            program: icon.program, width: icon.width, height: icon.height, xPosition: icon.xPosition,
            yPosition: icon.yPosition, duration: icon.duration?.seconds, offset: icon.offset?.seconds,
            apiFramework: icon.apiFramework, pxratio: icon.pxratio, altText: icon.altText, hoverText: icon.hoverText,
            resources: nonEmpty(icon.resources.map(InspectionReport.ResourceReport.init)),
            clickThrough: icon.clickThrough,
            clickTracking: nonEmpty(icon.clickTracking.map(InspectionReport.URLReport.init)),
            clickFallbackImages: nonEmpty(
                icon.clickFallbackImages.map {
                    FallbackImage(width: $0.width, height: $0.height, altText: $0.altText, url: $0.url)
                }),
            viewTracking: nonEmpty(icon.viewTracking))
    }
}

extension InspectionReport.LinearReport {
    init(_ linear: Linear) {
        let duration = linear.duration?.seconds
        self.init(
            duration: duration, skipOffset: linear.skipOffset?.formatted,
            mediaFiles: nonEmpty(linear.mediaFiles.map(InspectionReport.MediaFileReport.init)),
            mezzanines: nonEmpty(
                linear.mezzanines.map {
                    InspectionReport.MezzanineReport(
                        url: $0.url, id: $0.id, delivery: $0.delivery?.rawValue, type: $0.type, width: $0.width,
                        height: $0.height, codec: $0.codec, fileSize: $0.fileSize, mediaType: $0.mediaType)
                }),
            interactiveCreativeFiles: nonEmpty(
                linear.interactiveCreativeFiles.map {
                    InspectionReport.InteractiveFileReport(
                        url: $0.url, type: $0.type, apiFramework: $0.apiFramework, variableDuration: $0.variableDuration
                    )
                }),
            closedCaptionFiles: nonEmpty(
                linear.closedCaptionFiles.map {
                    InspectionReport.ClosedCaptionReport(url: $0.url, type: $0.type, language: $0.language)
                }),
            tracking: nonEmpty(linear.trackingEvents.map { .init($0, duration: duration) }),
            clickThrough: linear.videoClicks?.clickThrough.map(InspectionReport.URLReport.init),
            clickTracking: nonEmpty((linear.videoClicks?.clickTracking ?? []).map(InspectionReport.URLReport.init)),
            customClicks: nonEmpty((linear.videoClicks?.customClicks ?? []).map(InspectionReport.URLReport.init)),
            icons: nonEmpty(linear.icons.map(InspectionReport.IconReport.init)),
            adParameters: InspectionReport.AdParametersReport(linear.adParameters))
    }
}

extension InspectionReport.NonLinearAdsReport {
    init(_ ads: NonLinearAds) {
        self.init(
            nonLinears: nonEmpty(
                ads.nonLinears.map {
                    InspectionReport.NonLinearReport(
                        id: $0.id, width: $0.width, height: $0.height, expandedWidth: $0.expandedWidth,
                        expandedHeight: $0.expandedHeight, scalable: $0.scalable,
                        maintainAspectRatio: $0.maintainAspectRatio,
                        minSuggestedDuration: $0.minSuggestedDuration?.seconds, apiFramework: $0.apiFramework,
                        resources: nonEmpty($0.resources.map(InspectionReport.ResourceReport.init)),
                        adParameters: InspectionReport.AdParametersReport($0.adParameters),
                        clickThrough: $0.clickThrough.map(InspectionReport.URLReport.init),
                        clickTracking: nonEmpty($0.clickTracking.map(InspectionReport.URLReport.init)))
                }),
            tracking: nonEmpty(ads.trackingEvents.map { .init($0, duration: nil) }))
    }
}

extension InspectionReport.CompanionAdsReport {
    init(_ ads: CompanionAds) {
        self.init(
            required: ads.required?.rawValue,
            companions: nonEmpty(
                ads.companions.map {
                    InspectionReport.CompanionReport(
                        id: $0.id, width: $0.width, height: $0.height, assetWidth: $0.assetWidth,
                        assetHeight: $0.assetHeight, expandedWidth: $0.expandedWidth,
                        expandedHeight: $0.expandedHeight, apiFramework: $0.apiFramework, adSlotID: $0.adSlotID,
                        pxratio: $0.pxratio, renderingMode: $0.renderingMode, altText: $0.altText,
                        resources: nonEmpty($0.resources.map(InspectionReport.ResourceReport.init)),
                        adParameters: InspectionReport.AdParametersReport($0.adParameters),
                        clickThrough: $0.clickThrough,
                        clickTracking: nonEmpty($0.clickTracking.map(InspectionReport.URLReport.init)),
                        tracking: nonEmpty($0.trackingEvents.map { .init($0, duration: nil) }))
                }))
    }
}

extension InspectionReport.CreativeReport {
    init(_ creative: Creative) {
        let kind: String
        switch creative.kind {
        case .linear: kind = "linear"
        case .nonLinearAds: kind = "nonLinearAds"
        case .companionAds: kind = "companionAds"
        case nil: kind = "none"
        }
        self.init(
            kind: kind, id: creative.id, adID: creative.adID, sequence: creative.sequence,
            apiFramework: creative.apiFramework,
            universalAdIDs: nonEmpty(
                creative.universalAdIDs.map {
                    InspectionReport.UniversalAdIDReport(idRegistry: $0.idRegistry, value: $0.value)
                }),
            extensions: nonEmpty(creative.creativeExtensions.map(InspectionReport.ExtensionReport.init)),
            linear: creative.linear.map(InspectionReport.LinearReport.init),
            nonLinearAds: creative.nonLinearAds.map(InspectionReport.NonLinearAdsReport.init),
            companionAds: creative.companionAds.map(InspectionReport.CompanionAdsReport.init))
    }
}
