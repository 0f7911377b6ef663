extension DocumentReader {
    mutating func readCreatives(_ element: Int, inline: Bool) -> [Creative] {
        var creatives: [Creative] = []
        for child in tree.childIndices(of: element) where name(Int(child)) == "Creative" {
            creatives.append(readCreative(Int(child), inline: inline))
        }
        return creatives
    }

    mutating func readCreative(_ element: Int, inline: Bool) -> Creative {
        var creative = Creative(
            id: attribute("id", element),
            adID: tree.attributeIgnoringCase("adId", of: element),
            sequence: intAttribute("sequence", element),
            apiFramework: attribute("apiFramework", element))
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            let childName = name(child)
            switch childName {
            case "UniversalAdId":
                // VAST 4.0 put the value in `idValue`; 4.1+ in the text.
                let value = nonEmptyText(child) ?? attribute("idValue", child) ?? ""
                creative.universalAdIDs.append(
                    UniversalAdID(idRegistry: attribute("idRegistry", child) ?? "unknown", value: value))
            case "CreativeExtensions":
                creative.creativeExtensions.append(contentsOf: extensions(child))
            case "Linear", "NonLinearAds", "CompanionAds":
                if creative.kind != nil {
                    violation("<Creative> holds more than one of Linear/NonLinearAds/CompanionAds", at: child)
                    continue
                }
                switch childName {
                case "Linear": creative.kind = .linear(readLinear(child, inline: inline))
                case "NonLinearAds": creative.kind = .nonLinearAds(readNonLinearAds(child))
                default: creative.kind = .companionAds(readCompanionAds(child))
                }
            default:
                break
            }
        }
        return creative
    }

    mutating func readLinear(_ element: Int, inline: Bool) -> Linear {
        var linear = Linear()
        if let raw = attribute("skipoffset", element) ?? miscasedAttribute("skipoffset", element) {
            linear.skipOffset = offset(raw, at: element, what: "skipoffset")
            if linear.skipOffset == nil {
                violation(
                    "skipoffset \"\(raw)\" is neither HH:MM:SS(.mmm) nor n%; the ad is read as not skippable",
                    at: element)
            }
        }
        var sawMediaFiles = false
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "Duration": linear.duration = time(text(child), at: child, what: "Duration")
            case "MediaFiles":
                sawMediaFiles = true
                readMediaFiles(child, into: &linear)
            case "Mezzanine":
                if let mezzanine = readMezzanine(child) { linear.mezzanines.append(mezzanine) }
            case "TrackingEvents": linear.trackingEvents.append(contentsOf: trackingEvents(child))
            case "VideoClicks": linear.videoClicks = readVideoClicks(child)
            case "Icons":
                for icon in tree.childIndices(of: child) where name(Int(icon)) == "Icon" {
                    linear.icons.append(readIcon(Int(icon)))
                }
            case "AdParameters": linear.adParameters = adParameters(child)
            default: break
            }
        }
        if inline {
            if linear.duration == nil { violation("inline <Linear> has no valid Duration", at: element) }
            if !sawMediaFiles || linear.mediaFiles.isEmpty {
                violation("inline <Linear> has no MediaFile", at: element, code: .noSupportedMediaFile)
            }
        }
        return linear
    }

    mutating func readMediaFiles(_ element: Int, into linear: inout Linear) {
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "MediaFile":
                if let mediaFile = readMediaFile(child) { linear.mediaFiles.append(mediaFile) }
            case "Mezzanine":
                if let mezzanine = readMezzanine(child) { linear.mezzanines.append(mezzanine) }
            case "InteractiveCreativeFile":
                if let url = urlText(child) {
                    linear.interactiveCreativeFiles.append(
                        InteractiveCreativeFile(
                            url: url, type: attribute("type", child), apiFramework: attribute("apiFramework", child),
                            variableDuration: boolAttribute("variableDuration", child)))
                }
            case "ClosedCaptionFiles":
                for file in tree.childIndices(of: child) where name(Int(file)) == "ClosedCaptionFile" {
                    let file = Int(file)
                    if let url = urlText(file) {
                        linear.closedCaptionFiles.append(
                            ClosedCaptionFile(
                                url: url, type: attribute("type", file), language: attribute("language", file)))
                    }
                }
            default: break
            }
        }
    }

    mutating func readMediaFile(_ element: Int) -> MediaFile? {
        guard let url = urlText(element) else {
            violation("<MediaFile> has no URL; ignored", at: element, code: .mediaFileNotFound)
            return nil
        }
        let delivery = attribute("delivery", element).map { MediaFile.Delivery(rawValue: $0.trimmingXMLWhitespace()) }
        if delivery == nil { violation("<MediaFile> has no delivery attribute", at: element) }
        if let delivery, delivery != .progressive, delivery != .streaming {
            violation("<MediaFile> delivery \"\(delivery.rawValue)\" is neither progressive nor streaming", at: element)
        }
        let type = attribute("type", element)
        if type == nil { violation("<MediaFile> has no type attribute", at: element) }
        let width = intAttribute("width", element)
        let height = intAttribute("height", element)
        if width == nil || height == nil { violation("<MediaFile> lacks width or height", at: element) }
        return MediaFile(
            url: url, id: attribute("id", element), delivery: delivery, type: type, width: width, height: height,
            codec: attribute("codec", element), bitrate: intAttribute("bitrate", element),
            minBitrate: intAttribute("minBitrate", element), maxBitrate: intAttribute("maxBitrate", element),
            scalable: boolAttribute("scalable", element),
            maintainAspectRatio: boolAttribute("maintainAspectRatio", element),
            fileSize: intAttribute("fileSize", element), mediaType: attribute("mediaType", element),
            apiFramework: attribute("apiFramework", element))
    }

    mutating func readMezzanine(_ element: Int) -> Mezzanine? {
        guard let url = urlText(element) else { return nil }
        return Mezzanine(
            url: url, id: attribute("id", element),
            delivery: attribute("delivery", element).map(MediaFile.Delivery.init(rawValue:)),
            type: attribute("type", element), width: intAttribute("width", element),
            height: intAttribute("height", element), codec: attribute("codec", element),
            fileSize: intAttribute("fileSize", element), mediaType: attribute("mediaType", element))
    }

    mutating func readVideoClicks(_ element: Int) -> VideoClicks {
        var clicks = VideoClicks()
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            guard let click = clickURL(child) else { continue }
            switch name(child) {
            case "ClickThrough": clicks.clickThrough = click
            case "ClickTracking": clicks.clickTracking.append(click)
            case "CustomClick": clicks.customClicks.append(click)
            default: break
            }
        }
        return clicks
    }

    mutating func readIcon(_ element: Int) -> Icon {
        var icon = Icon(
            program: attribute("program", element), width: intAttribute("width", element),
            height: intAttribute("height", element), xPosition: attribute("xPosition", element),
            yPosition: attribute("yPosition", element),
            duration: attribute("duration", element).flatMap { time($0, at: element, what: "Icon duration") },
            offset: attribute("offset", element).flatMap { time($0, at: element, what: "Icon offset") },
            apiFramework: attribute("apiFramework", element), pxratio: attribute("pxratio", element),
            altText: attribute("altText", element), hoverText: attribute("hoverText", element))
        let missing = ["program", "width", "height", "xPosition", "yPosition"].filter { attribute($0, element) == nil }
        if !missing.isEmpty {
            violation("<Icon> has no \(missing.joined(separator: ", ")) (required by the VAST schema)", at: element)
        }
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            if let resource = resource(child) {
                icon.resources.append(resource)
                continue
            }
            switch name(child) {
            case "IconViewTracking":
                if let url = urlText(child) { icon.viewTracking.append(url) }
            case "IconClicks":
                for click in tree.childIndices(of: child) {
                    let click = Int(click)
                    switch name(click) {
                    case "IconClickThrough": icon.clickThrough = urlText(click)
                    case "IconClickTracking":
                        if let url = clickURL(click) { icon.clickTracking.append(url) }
                    case "IconClickFallbackImages":
                        for image in tree.childIndices(of: click) where name(Int(image)) == "IconClickFallbackImage" {
                            icon.clickFallbackImages.append(readFallbackImage(Int(image)))
                        }
                    default: break
                    }
                }
            default: break
            }
        }
        return icon
    }

    mutating func readFallbackImage(_ element: Int) -> Icon.ClickFallbackImage {
        var image = Icon.ClickFallbackImage(
            width: intAttribute("width", element), height: intAttribute("height", element))
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "AltText": image.altText = text(child)
            case "StaticResource": image.url = urlText(child)
            default: break
            }
        }
        return image
    }

    mutating func readNonLinearAds(_ element: Int) -> NonLinearAds {
        var ads = NonLinearAds()
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "NonLinear": ads.nonLinears.append(readNonLinear(child))
            case "TrackingEvents": ads.trackingEvents.append(contentsOf: trackingEvents(child))
            default: break
            }
        }
        return ads
    }

    mutating func readNonLinear(_ element: Int) -> NonLinear {
        var nonLinear = NonLinear(
            id: attribute("id", element), width: intAttribute("width", element),
            height: intAttribute("height", element), expandedWidth: intAttribute("expandedWidth", element),
            expandedHeight: intAttribute("expandedHeight", element), scalable: boolAttribute("scalable", element),
            maintainAspectRatio: boolAttribute("maintainAspectRatio", element),
            minSuggestedDuration: attribute("minSuggestedDuration", element).flatMap {
                time($0, at: element, what: "minSuggestedDuration")
            },
            apiFramework: attribute("apiFramework", element))
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            if let resource = resource(child) {
                nonLinear.resources.append(resource)
                continue
            }
            switch name(child) {
            case "AdParameters": nonLinear.adParameters = adParameters(child)
            case "NonLinearClickThrough": nonLinear.clickThrough = clickURL(child)
            case "NonLinearClickTracking":
                if let click = clickURL(child) { nonLinear.clickTracking.append(click) }
            default: break
            }
        }
        return nonLinear
    }

    mutating func readCompanionAds(_ element: Int) -> CompanionAds {
        var ads = CompanionAds(required: attribute("required", element).map(CompanionAds.Requirement.init(rawValue:)))
        for child in tree.childIndices(of: element) where name(Int(child)) == "Companion" {
            ads.companions.append(readCompanion(Int(child)))
        }
        return ads
    }

    mutating func readCompanion(_ element: Int) -> Companion {
        var companion = Companion(
            id: attribute("id", element), width: intAttribute("width", element),
            height: intAttribute("height", element), assetWidth: intAttribute("assetWidth", element),
            assetHeight: intAttribute("assetHeight", element), expandedWidth: intAttribute("expandedWidth", element),
            expandedHeight: intAttribute("expandedHeight", element), apiFramework: attribute("apiFramework", element),
            adSlotID: tree.attributeIgnoringCase("adSlotId", of: element), pxratio: attribute("pxratio", element),
            renderingMode: attribute("renderingMode", element))
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            if let resource = resource(child) {
                companion.resources.append(resource)
                continue
            }
            switch name(child) {
            case "AdParameters": companion.adParameters = adParameters(child)
            case "AltText": companion.altText = text(child)
            case "CompanionClickThrough": companion.clickThrough = urlText(child)
            case "CompanionClickTracking":
                if let click = clickURL(child) { companion.clickTracking.append(click) }
            case "TrackingEvents": companion.trackingEvents.append(contentsOf: trackingEvents(child))
            default: break
            }
        }
        return companion
    }
}
