import Foundation
import InterludeVAST

/// Every creative of an ad as the inspector lists it: each URL with what it
/// is for, and every attribute the document gave. Lists that are empty and
/// values that are absent are left out of the JSON.
extension InspectionReport {
    /// A URL with its optional `id` (impressions, click tracking, custom clicks).
    package struct URLReport: Codable, Equatable {
        package var id: String?
        package var url: String
    }

    /// One tracking URL and its event; `progress` (and any event with an
    /// offset) has the offset as written and, where it can be known, in seconds.
    package struct TrackingReport: Codable, Equatable {
        package var event: String
        package var url: String
        package var offset: String?
        package var offsetSeconds: Double?
    }

    /// A creative resource: `static` (with `creativeType`), `iframe` or `html`.
    package struct ResourceReport: Codable, Equatable {
        package var kind: String
        package var creativeType: String?
        package var url: String?
        package var html: String?
    }

    package struct AdParametersReport: Codable, Equatable {
        package var xmlEncoded: Bool?
        package var value: String
    }

    package struct MediaFileReport: Codable, Equatable {
        package var url: String
        package var id: String? = nil
        package var type: String?
        package var delivery: String?
        package var width: Int?
        package var height: Int?
        package var codec: String? = nil
        /// Kbps, as written (`minBitrate`/`maxBitrate` for variable-bitrate files).
        package var bitrate: Int?
        package var minBitrate: Int? = nil
        package var maxBitrate: Int? = nil
        package var scalable: Bool? = nil
        package var maintainAspectRatio: Bool? = nil
        package var fileSize: Int? = nil
        package var mediaType: String? = nil
        package var apiFramework: String? = nil
    }

    package struct MezzanineReport: Codable, Equatable {
        package var url: String
        package var id: String?
        package var delivery: String?
        package var type: String?
        package var width: Int?
        package var height: Int?
        package var codec: String?
        package var fileSize: Int?
        package var mediaType: String?
    }

    package struct InteractiveFileReport: Codable, Equatable {
        package var url: String
        package var type: String?
        package var apiFramework: String?
        package var variableDuration: Bool?
    }

    package struct ClosedCaptionReport: Codable, Equatable {
        package var url: String
        package var type: String?
        package var language: String?
    }

    package struct IconReport: Codable, Equatable {
        package struct FallbackImage: Codable, Equatable {
            package var width: Int?
            package var height: Int?
            package var altText: String?
            package var url: String?
        }

        package var program: String?
        package var width: Int?
        package var height: Int?
        package var xPosition: String?
        package var yPosition: String?
        /// Seconds.
        package var duration: Double?
        /// Seconds.
        package var offset: Double?
        package var apiFramework: String?
        package var pxratio: String?
        package var altText: String?
        package var hoverText: String?
        package var resources: [ResourceReport]?
        package var clickThrough: String?
        package var clickTracking: [URLReport]?
        package var clickFallbackImages: [FallbackImage]?
        package var viewTracking: [String]?
    }

    package struct LinearReport: Codable, Equatable {
        /// Seconds.
        package var duration: Double?
        package var skipOffset: String?
        package var mediaFiles: [MediaFileReport]?
        package var mezzanines: [MezzanineReport]?
        package var interactiveCreativeFiles: [InteractiveFileReport]?
        package var closedCaptionFiles: [ClosedCaptionReport]?
        package var tracking: [TrackingReport]?
        package var clickThrough: URLReport?
        package var clickTracking: [URLReport]?
        package var customClicks: [URLReport]?
        package var icons: [IconReport]?
        package var adParameters: AdParametersReport?
    }

    package struct NonLinearReport: Codable, Equatable {
        package var id: String?
        package var width: Int?
        package var height: Int?
        package var expandedWidth: Int?
        package var expandedHeight: Int?
        package var scalable: Bool?
        package var maintainAspectRatio: Bool?
        /// Seconds.
        package var minSuggestedDuration: Double?
        package var apiFramework: String?
        package var resources: [ResourceReport]?
        package var adParameters: AdParametersReport?
        package var clickThrough: URLReport?
        package var clickTracking: [URLReport]?
    }

    package struct NonLinearAdsReport: Codable, Equatable {
        package var nonLinears: [NonLinearReport]?
        package var tracking: [TrackingReport]?
    }

    package struct CompanionReport: Codable, Equatable {
        package var id: String?
        package var width: Int?
        package var height: Int?
        package var assetWidth: Int?
        package var assetHeight: Int?
        package var expandedWidth: Int?
        package var expandedHeight: Int?
        package var apiFramework: String?
        package var adSlotID: String?
        package var pxratio: String?
        package var renderingMode: String?
        package var altText: String?
        package var resources: [ResourceReport]?
        package var adParameters: AdParametersReport?
        package var clickThrough: String?
        package var clickTracking: [URLReport]?
        package var tracking: [TrackingReport]?
    }

    package struct CompanionAdsReport: Codable, Equatable {
        /// `all`, `any` or `none`, as written.
        package var required: String?
        package var companions: [CompanionReport]?
    }

    package struct UniversalAdIDReport: Codable, Equatable {
        package var idRegistry: String
        package var value: String
    }

    package struct CreativeReport: Codable, Equatable {
        /// `linear`, `nonLinearAds`, `companionAds`, or `none` (a wrapper's tracking-only creative may have no body).
        package var kind: String
        package var id: String?
        package var adID: String?
        package var sequence: Int?
        package var apiFramework: String?
        package var universalAdIDs: [UniversalAdIDReport]?
        package var extensions: [ExtensionReport]?
        package var linear: LinearReport?
        package var nonLinearAds: NonLinearAdsReport?
        package var companionAds: CompanionAdsReport?
    }
}

/// nil for an empty list, so that JSON leaves it out.
package func nonEmpty<Element>(_ elements: [Element]) -> [Element]? {
    elements.isEmpty ? nil : elements
}

extension InspectionReport.URLReport {
    package init(_ click: ClickURL) { self.init(id: click.id, url: click.url) }
}

extension InspectionReport.TrackingReport {
    /// `duration` (seconds) turns a percentage offset into seconds.
    package init(_ event: TrackingEvent, duration: Double?) {
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
    package init(_ resource: CreativeResource) {
        switch resource {
        case .staticResource(let creativeType, let url):
            self.init(kind: "static", creativeType: creativeType, url: url, html: nil)
        case .iframe(let url): self.init(kind: "iframe", creativeType: nil, url: url, html: nil)
        case .html(let html): self.init(kind: "html", creativeType: nil, url: nil, html: html)
        }
    }
}

extension InspectionReport.AdParametersReport {
    package init?(_ parameters: AdParameters?) {
        guard let parameters else { return nil }
        self.init(xmlEncoded: parameters.xmlEncoded, value: parameters.value)
    }
}

extension InspectionReport.MediaFileReport {
    package init(_ file: MediaFile) {
        self.init(
            url: file.url, id: file.id, type: file.type, delivery: file.delivery?.rawValue, width: file.width,
            height: file.height, codec: file.codec, bitrate: file.bitrate, minBitrate: file.minBitrate,
            maxBitrate: file.maxBitrate, scalable: file.scalable, maintainAspectRatio: file.maintainAspectRatio,
            fileSize: file.fileSize, mediaType: file.mediaType, apiFramework: file.apiFramework)
    }
}

extension InspectionReport.IconReport {
    package init(_ icon: Icon) {
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
    package init(_ linear: Linear) {
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
    package init(_ ads: NonLinearAds) {
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
    package init(_ ads: CompanionAds) {
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
    package init(_ creative: Creative) {
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
