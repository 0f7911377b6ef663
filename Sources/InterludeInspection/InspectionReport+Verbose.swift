import Foundation
internal import InterludeFormatting

/// `interlude inspect --verbose`: under each ad's summary, every URL the
/// document holds with what it is for, and every attribute (the JSON's
/// content as text).
extension InspectionReport.AdReport {
    package func detailLines(indent: String) -> [String] {
        var lines: [String] = []
        func add(_ text: String) { lines.append(indent + text) }
        if let version = adSystemVersion { add("system version: \(version)") }
        if let adType { add("ad type: \(adType)") }
        if let conditionalAd { add("conditional ad: \(conditionalAd)") }
        if let adServingID { add("ad serving id: \(adServingID)") }
        if let advertiser { add("advertiser: \(advertiser.name)" + (advertiser.id.map { " (id \($0))" } ?? "")) }
        if let description { add("description: \(description)") }
        if let pricing {
            add(
                "pricing: \([pricing.model, pricing.currency].compactMap { $0 }.joined(separator: " ")) \(pricing.value)"
            )
        }
        for category in categories ?? [] {
            add("category: \(category.value)" + (category.authority.map { " (authority \($0))" } ?? ""))
        }
        for category in blockedAdCategories ?? [] {
            add("blocked category: \(category.value)" + (category.authority.map { " (authority \($0))" } ?? ""))
        }
        if let expires { add("expires: \(expires) s") }
        for (name, value) in [
            ("followAdditionalWrappers", followAdditionalWrappers), ("allowMultipleAds", allowMultipleAds),
            ("fallbackOnNoAd", fallbackOnNoAd),
        ] {
            if let value { add("\(name): \(value)") }
        }
        for impression in impressionURLs ?? [] { add("impression\(idText(impression.id)): \(impression.url)") }
        for survey in surveys ?? [] { add("survey\(survey.type.map { " (\($0))" } ?? ""): \(survey.url)") }
        if let viewable = viewableImpression {
            for url in viewable.viewable ?? [] { add("viewable impression: \(url)") }
            for url in viewable.notViewable ?? [] { add("not viewable: \(url)") }
            for url in viewable.viewUndetermined ?? [] { add("view undetermined: \(url)") }
        }
        for (index, creative) in (creatives ?? []).enumerated() {
            lines.append(contentsOf: creative.lines(number: index + 1, indent: indent))
        }
        for verification in verifications ?? [] {
            add("verification: \(verification.vendor ?? "(no vendor)")")
            for resource in verification.javaScriptResources ?? [] {
                add(
                    "  JavaScript resource\(resource.apiFramework.map { " (\($0))" } ?? "")"
                        + (resource.browserOptional == true ? ", browser optional" : "") + ": \(resource.url)")
            }
            for resource in verification.executableResources ?? [] {
                let detail = [resource.apiFramework, resource.type].compactMap { $0 }.joined(separator: ", ")
                add("  executable resource\(detail.isEmpty ? "" : " (\(detail))"): \(resource.url)")
            }
            if let parameters = verification.parameters { add("  parameters: \(parameters)") }
            for event in verification.tracking ?? [] { add("  " + event.line) }
        }
        for ext in extensions ?? [] { lines.append(contentsOf: ext.lines(indent: indent)) }
        return lines
    }

    private func idText(_ id: String?) -> String { id.map { " [\($0)]" } ?? "" }
}

extension InspectionReport.TrackingReport {
    /// `tracking progress at 25% (2.5 s): URL`.
    package var line: String {
        var text = "tracking \(event)"
        if let offset {
            text += " at \(offset)"
            // A percentage's seconds depend on the duration: said when known.
            if offset.hasSuffix("%"), let offsetSeconds {
                text += " (\(DecimalText.string(offsetSeconds, .upTo(3))) s)"
            }
        }
        return text + ": \(url)"
    }
}

extension InspectionReport.ExtensionReport {
    package func lines(indent: String, label: String = "extension") -> [String] {
        var header = "\(label)"
        if let type { header += " type=\(type)" }
        for key in (attributes ?? [:]).keys.sorted() { header += " \(key)=\(attributes![key]!)" }
        return [
            indent + header + ": " + (rawXML.isEmpty ? "(empty)" : rawXML.replacingOccurrences(of: "\n", with: " "))
        ]
    }
}

extension InspectionReport.ResourceReport {
    package var text: String {
        switch kind {
        case "static": return "static\(creativeType.map { " \($0)" } ?? "") \(url ?? "")"
        case "iframe": return "iframe \(url ?? "")"
        default: return "HTML \(html ?? "")"
        }
    }
}

extension InspectionReport.MediaFileReport {
    /// `video/mp4 640x360 800 kbps progressive …`.
    package var detail: String {
        var parts: [String] = [type ?? "?"]
        if let width, let height { parts.append("\(width)x\(height)") }
        if let bitrate {
            parts.append("\(bitrate) kbps")
        } else if minBitrate != nil || maxBitrate != nil {
            parts.append("\(minBitrate.map(String.init) ?? "?")–\(maxBitrate.map(String.init) ?? "?") kbps")
        }
        if let delivery { parts.append(delivery) }
        if let codec { parts.append("codec \(codec)") }
        if let id { parts.append("id \(id)") }
        if let fileSize { parts.append("\(fileSize) bytes") }
        if let mediaType { parts.append("mediaType \(mediaType)") }
        if let apiFramework { parts.append("apiFramework \(apiFramework)") }
        if let scalable { parts.append("scalable \(scalable)") }
        if let maintainAspectRatio { parts.append("maintainAspectRatio \(maintainAspectRatio)") }
        return parts.joined(separator: " ")
    }
}

extension InspectionReport.CreativeReport {
    package func lines(number: Int, indent: String) -> [String] {
        var lines: [String] = []
        func add(_ text: String) { lines.append(indent + "  " + text) }
        var header = "creative \(number) (\(kind)"
        if let id { header += ", id \(id)" }
        if let adID { header += ", adId \(adID)" }
        if let sequence { header += ", sequence \(sequence)" }
        if let apiFramework { header += ", apiFramework \(apiFramework)" }
        lines.append(indent + header + ")")
        for universal in universalAdIDs ?? [] { add("universal ad id: \(universal.value) (\(universal.idRegistry))") }
        if let linear {
            if let duration = linear.duration { add("duration: \(DecimalText.string(duration, .upTo(3))) s") }
            if let skip = linear.skipOffset { add("skip offset: \(skip)") }
            for file in linear.mediaFiles ?? [] { add("media: \(file.detail) \(file.url)") }
            for file in linear.mezzanines ?? [] {
                let size = file.width.flatMap { width in file.height.map { " \(width)x\($0)" } } ?? ""
                add("mezzanine: \(file.type ?? "?")\(size) \(file.url)")
            }
            for file in linear.interactiveCreativeFiles ?? [] {
                add("interactive file: \(file.type ?? "?") \(file.apiFramework ?? "") \(file.url)")
            }
            for file in linear.closedCaptionFiles ?? [] {
                add("closed captions: \(file.type ?? "?") \(file.language ?? "") \(file.url)")
            }
            for event in linear.tracking ?? [] { add(event.line) }
            if let click = linear.clickThrough { add("click-through\(idText(click.id)): \(click.url)") }
            for click in linear.clickTracking ?? [] { add("click tracking\(idText(click.id)): \(click.url)") }
            for click in linear.customClicks ?? [] { add("custom click\(idText(click.id)): \(click.url)") }
            for icon in linear.icons ?? [] { lines.append(contentsOf: icon.lines(indent: indent + "  ")) }
            if let parameters = linear.adParameters { add("ad parameters: \(parameters.value)") }
        }
        if let nonLinearAds {
            for nonLinear in nonLinearAds.nonLinears ?? [] {
                let size = nonLinear.width.flatMap { width in nonLinear.height.map { " \(width)x\($0)" } } ?? ""
                add("non-linear\(size)\(nonLinear.id.map { " id \($0)" } ?? "")")
                for resource in nonLinear.resources ?? [] { add("  resource: \(resource.text)") }
                if let click = nonLinear.clickThrough { add("  click-through: \(click.url)") }
                for click in nonLinear.clickTracking ?? [] { add("  click tracking\(idText(click.id)): \(click.url)") }
            }
            for event in nonLinearAds.tracking ?? [] { add(event.line) }
        }
        if let companionAds {
            if let required = companionAds.required { add("companions required: \(required)") }
            for companion in companionAds.companions ?? [] {
                let size = companion.width.flatMap { width in companion.height.map { " \(width)x\($0)" } } ?? ""
                var header = "companion\(size)"
                if let id = companion.id { header += " id \(id)" }
                if let slot = companion.adSlotID { header += " slot \(slot)" }
                if let mode = companion.renderingMode { header += " \(mode)" }
                add(header)
                for resource in companion.resources ?? [] { add("  resource: \(resource.text)") }
                if let click = companion.clickThrough { add("  click-through: \(click)") }
                for click in companion.clickTracking ?? [] { add("  click tracking\(idText(click.id)): \(click.url)") }
                for event in companion.tracking ?? [] { add("  " + event.line) }
            }
        }
        for ext in extensions ?? [] {
            lines.append(contentsOf: ext.lines(indent: indent + "  ", label: "creative extension"))
        }
        return lines
    }

    private func idText(_ id: String?) -> String { id.map { " [\($0)]" } ?? "" }
}

extension InspectionReport.IconReport {
    package func lines(indent: String) -> [String] {
        var header = "icon \(program ?? "(no program)")"
        if let width, let height { header += " \(width)x\(height)" }
        if xPosition != nil || yPosition != nil { header += " at \(xPosition ?? "?"),\(yPosition ?? "?")" }
        if let offset { header += " from \(DecimalText.string(offset, .upTo(3))) s" }
        if let duration { header += " for \(DecimalText.string(duration, .upTo(3))) s" }
        var lines = [indent + header]
        for resource in resources ?? [] { lines.append(indent + "  resource: \(resource.text)") }
        if let clickThrough { lines.append(indent + "  click-through: \(clickThrough)") }
        for click in clickTracking ?? [] { lines.append(indent + "  click tracking: \(click.url)") }
        for image in clickFallbackImages ?? [] { lines.append(indent + "  click fallback image: \(image.url ?? "")") }
        for url in viewTracking ?? [] { lines.append(indent + "  view tracking: \(url)") }
        return lines
    }
}

extension InspectionReport.AdBreakReport {
    package func detailLines(indent: String) -> [String] {
        var lines: [String] = []
        if let id = adSourceID { lines.append(indent + "ad source id: \(id)") }
        if let value = allowMultipleAds { lines.append(indent + "allowMultipleAds: \(value)") }
        if let value = followRedirects { lines.append(indent + "followRedirects: \(value)") }
        if let templateType { lines.append(indent + "template type: \(templateType)") }
        if let customAdData {
            lines.append(indent + "custom ad data: \(customAdData.replacingOccurrences(of: "\n", with: " "))")
        }
        for event in tracking ?? [] { lines.append(indent + "break tracking \(event.event): \(event.url)") }
        for ext in extensions ?? [] { lines.append(contentsOf: ext.lines(indent: indent)) }
        return lines
    }
}
