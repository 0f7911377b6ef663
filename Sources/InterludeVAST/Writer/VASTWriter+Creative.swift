extension XMLBuilder {
    mutating func writeCreatives(_ creatives: [Creative]) {
        open("Creatives")
        for creative in creatives { writeCreative(creative) }
        close("Creatives")
    }

    mutating func writeCreative(_ creative: Creative) {
        open(
            "Creative",
            [
                "id": creative.id, "adId": creative.adID, "sequence": creative.sequence.xmlValue,
                "apiFramework": creative.apiFramework,
            ])
        for universal in creative.universalAdIDs {
            element("UniversalAdId", ["idRegistry": universal.idRegistry], text: universal.value)
        }
        if !creative.creativeExtensions.isEmpty {
            writeExtensions(creative.creativeExtensions, container: "CreativeExtensions", item: "CreativeExtension")
        }
        switch creative.kind {
        case .linear(let linear): writeLinear(linear)
        case .nonLinearAds(let ads): writeNonLinearAds(ads)
        case .companionAds(let ads): writeCompanionAds(ads)
        case nil: break
        }
        close("Creative")
    }

    mutating func writeLinear(_ linear: Linear) {
        open("Linear", ["skipoffset": linear.skipOffset?.formatted])
        if let duration = linear.duration { element("Duration", text: duration.formatted) }
        if let parameters = linear.adParameters { writeAdParameters(parameters) }
        let hasFiles =
            !linear.mediaFiles.isEmpty || !linear.mezzanines.isEmpty || !linear.interactiveCreativeFiles.isEmpty
            || !linear.closedCaptionFiles.isEmpty
        if hasFiles {
            open("MediaFiles")
            for file in linear.mediaFiles { writeMediaFile(file) }
            for mezzanine in linear.mezzanines { writeMezzanine(mezzanine) }
            for file in linear.interactiveCreativeFiles {
                element(
                    "InteractiveCreativeFile",
                    [
                        "type": file.type, "apiFramework": file.apiFramework,
                        "variableDuration": file.variableDuration.xmlValue,
                    ], text: file.url)
            }
            if !linear.closedCaptionFiles.isEmpty {
                open("ClosedCaptionFiles")
                for file in linear.closedCaptionFiles {
                    element("ClosedCaptionFile", ["type": file.type, "language": file.language], text: file.url)
                }
                close("ClosedCaptionFiles")
            }
            close("MediaFiles")
        }
        if !linear.trackingEvents.isEmpty { writeTrackingEvents(linear.trackingEvents) }
        if let clicks = linear.videoClicks {
            open("VideoClicks")
            if let through = clicks.clickThrough { writeClick("ClickThrough", through) }
            for click in clicks.clickTracking { writeClick("ClickTracking", click) }
            for click in clicks.customClicks { writeClick("CustomClick", click) }
            close("VideoClicks")
        }
        if !linear.icons.isEmpty {
            open("Icons")
            for icon in linear.icons { writeIcon(icon) }
            close("Icons")
        }
        close("Linear")
    }

    mutating func writeMediaFile(_ file: MediaFile) {
        element(
            "MediaFile",
            [
                "id": file.id, "delivery": file.delivery?.rawValue, "type": file.type,
                "width": file.width.xmlValue, "height": file.height.xmlValue, "codec": file.codec,
                "bitrate": file.bitrate.xmlValue, "minBitrate": file.minBitrate.xmlValue,
                "maxBitrate": file.maxBitrate.xmlValue, "scalable": file.scalable.xmlValue,
                "maintainAspectRatio": file.maintainAspectRatio.xmlValue, "fileSize": file.fileSize.xmlValue,
                "mediaType": file.mediaType, "apiFramework": file.apiFramework,
            ], text: file.url)
    }

    mutating func writeMezzanine(_ mezzanine: Mezzanine) {
        element(
            "Mezzanine",
            [
                "id": mezzanine.id, "delivery": mezzanine.delivery?.rawValue, "type": mezzanine.type,
                "width": mezzanine.width.xmlValue, "height": mezzanine.height.xmlValue, "codec": mezzanine.codec,
                "fileSize": mezzanine.fileSize.xmlValue, "mediaType": mezzanine.mediaType,
            ], text: mezzanine.url)
    }

    mutating func writeIcon(_ icon: Icon) {
        open(
            "Icon",
            [
                "program": icon.program, "width": icon.width.xmlValue, "height": icon.height.xmlValue,
                "xPosition": icon.xPosition, "yPosition": icon.yPosition, "duration": icon.duration?.formatted,
                "offset": icon.offset?.formatted, "apiFramework": icon.apiFramework, "pxratio": icon.pxratio,
                "altText": icon.altText, "hoverText": icon.hoverText,
            ])
        for resource in icon.resources { writeResource(resource) }
        let hasClicks = icon.clickThrough != nil || !icon.clickTracking.isEmpty || !icon.clickFallbackImages.isEmpty
        if hasClicks {
            open("IconClicks")
            if let through = icon.clickThrough { element("IconClickThrough", text: through) }
            for click in icon.clickTracking { writeClick("IconClickTracking", click) }
            if !icon.clickFallbackImages.isEmpty {
                open("IconClickFallbackImages")
                for image in icon.clickFallbackImages {
                    open("IconClickFallbackImage", ["width": image.width.xmlValue, "height": image.height.xmlValue])
                    if let altText = image.altText { element("AltText", text: altText) }
                    if let url = image.url { element("StaticResource", text: url) }
                    close("IconClickFallbackImage")
                }
                close("IconClickFallbackImages")
            }
            close("IconClicks")
        }
        for url in icon.viewTracking { element("IconViewTracking", text: url) }
        close("Icon")
    }

    mutating func writeNonLinearAds(_ ads: NonLinearAds) {
        open("NonLinearAds")
        for nonLinear in ads.nonLinears {
            open(
                "NonLinear",
                [
                    "id": nonLinear.id, "width": nonLinear.width.xmlValue, "height": nonLinear.height.xmlValue,
                    "expandedWidth": nonLinear.expandedWidth.xmlValue,
                    "expandedHeight": nonLinear.expandedHeight.xmlValue, "scalable": nonLinear.scalable.xmlValue,
                    "maintainAspectRatio": nonLinear.maintainAspectRatio.xmlValue,
                    "minSuggestedDuration": nonLinear.minSuggestedDuration?.formatted,
                    "apiFramework": nonLinear.apiFramework,
                ])
            for resource in nonLinear.resources { writeResource(resource) }
            if let parameters = nonLinear.adParameters { writeAdParameters(parameters) }
            if let through = nonLinear.clickThrough { writeClick("NonLinearClickThrough", through) }
            for click in nonLinear.clickTracking { writeClick("NonLinearClickTracking", click) }
            close("NonLinear")
        }
        if !ads.trackingEvents.isEmpty { writeTrackingEvents(ads.trackingEvents) }
        close("NonLinearAds")
    }

    mutating func writeCompanionAds(_ ads: CompanionAds) {
        open("CompanionAds", ["required": ads.required?.rawValue])
        for companion in ads.companions {
            open(
                "Companion",
                [
                    "id": companion.id, "width": companion.width.xmlValue, "height": companion.height.xmlValue,
                    "assetWidth": companion.assetWidth.xmlValue, "assetHeight": companion.assetHeight.xmlValue,
                    "expandedWidth": companion.expandedWidth.xmlValue,
                    "expandedHeight": companion.expandedHeight.xmlValue, "apiFramework": companion.apiFramework,
                    "adSlotId": companion.adSlotID, "pxratio": companion.pxratio,
                    "renderingMode": companion.renderingMode,
                ])
            for resource in companion.resources { writeResource(resource) }
            if let parameters = companion.adParameters { writeAdParameters(parameters) }
            if let altText = companion.altText { element("AltText", text: altText) }
            if let through = companion.clickThrough { element("CompanionClickThrough", text: through) }
            for click in companion.clickTracking { writeClick("CompanionClickTracking", click) }
            if !companion.trackingEvents.isEmpty { writeTrackingEvents(companion.trackingEvents) }
            close("Companion")
        }
        close("CompanionAds")
    }
}
