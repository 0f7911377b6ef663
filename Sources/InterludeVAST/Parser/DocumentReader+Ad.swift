extension DocumentReader {
    /// VAST major versions this parser reads.
    static let supportedVASTMajors: Set<Substring> = ["2", "3", "4"]

    mutating func readVASTRoot(_ root: Int) throws(VASTError) -> VASTDocument {
        let version = attribute("version", root)?.trimmingXMLWhitespace() ?? ""
        if version.isEmpty {
            violation("<VAST> has no version attribute", at: root)
        } else {
            let major = version.split(separator: ".", maxSplits: 1).first ?? ""
            guard Self.supportedVASTMajors.contains(major) else {
                throw error(.unsupportedVersion, "VAST version \(version) is not supported (2.0–4.3 are)", at: root)
            }
        }
        var document = VASTDocument(version: version)
        // Sequence → the first ad that had it: a pod's order must not hang on document order.
        var sequences: [Int: String] = [:]
        for child in tree.childIndices(of: root) {
            let child = Int(child)
            switch name(child) {
            case "Ad":
                guard let ad = readAd(child, version: version) else { break }
                if let sequence = ad.sequence {
                    if let first = sequences[sequence] {
                        warn(
                            .schemaValidationError,
                            "Ads \(first) and \(Self.label(ad)) share sequence \(sequence): they play in document order",
                            at: child)
                    } else {
                        sequences[sequence] = Self.label(ad)
                    }
                }
                document.ads.append(ad)
            case "Error":
                if let url = urlText(child) { document.errors.append(url) }
            default:
                break
            }
        }
        return document
    }

    /// `'id'`, or `(no id)`, for messages.
    private static func label(_ ad: Ad) -> String { ad.id.map { "'\($0)'" } ?? "(no id)" }

    mutating func readAd(_ element: Int, version: String) -> Ad? {
        var body: Ad.Content?
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "InLine":
                if body != nil {
                    violation("<Ad> holds more than one InLine/Wrapper; the first is used", at: child)
                    continue
                }
                body = .inLine(readInLine(child, version: version))
            case "Wrapper":
                if body != nil {
                    violation("<Ad> holds more than one InLine/Wrapper; the first is used", at: child)
                    continue
                }
                body = .wrapper(readWrapper(child))
            default:
                break
            }
        }
        guard let body else {
            violation("<Ad> holds neither InLine nor Wrapper; dropped", at: element)
            return nil
        }
        var sequence = intAttribute("sequence", element)
        if let value = sequence, value < 1 {
            violation("Ad sequence \(value) is below 1; read as a standalone ad", at: element)
            sequence = nil
        }
        return Ad(
            id: attribute("id", element), sequence: sequence,
            conditionalAd: boolAttribute("conditionalAd", element),
            adType: attribute("adType", element).map(Ad.AdType.init(rawValue:)), content: body)
    }

    mutating func readInLine(_ element: Int, version: String) -> InLine {
        var inLine = InLine()
        var extensionVerifications: [Verification] = []
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "AdSystem": inLine.adSystem = AdSystem(name: text(child), version: attribute("version", child))
            case "AdTitle": inLine.adTitle = text(child)
            case "AdServingId": inLine.adServingID = text(child)
            case "Impression":
                if let url = urlText(child) {
                    inLine.impressions.append(Impression(id: attribute("id", child), url: url))
                }
            case "Category":
                inLine.categories.append(AdCategory(authority: attribute("authority", child), value: text(child)))
            case "Description": inLine.description = text(child)
            case "Advertiser": inLine.advertiser = Advertiser(id: attribute("id", child), name: text(child))
            case "Pricing": inLine.pricing = readPricing(child)
            case "Survey":
                if let url = urlText(child) { inLine.surveys.append(Survey(type: attribute("type", child), url: url)) }
            case "Error":
                if let url = urlText(child) { inLine.errors.append(url) }
            case "ViewableImpression": inLine.viewableImpression = readViewableImpression(child)
            case "AdVerifications": inLine.adVerifications.append(contentsOf: readVerifications(child))
            case "Expires":
                if let seconds = Int(text(child)) {
                    inLine.expires = seconds
                } else {
                    violation("<Expires> \"\(text(child))\" is not a number of seconds", at: child)
                }
            case "Creatives": inLine.creatives = readCreatives(child, inline: true)
            case "Extensions":
                inLine.extensions.append(contentsOf: extensions(child))
                extensionVerifications.append(contentsOf: verificationsInExtensions(child))
            default: break
            }
        }
        if inLine.adVerifications.isEmpty { inLine.adVerifications = extensionVerifications }
        if inLine.adSystem == nil { violation("<InLine> has no AdSystem", at: element) }
        if inLine.adTitle == nil { violation("<InLine> has no AdTitle", at: element) }
        if inLine.impressions.isEmpty { violation("<InLine> has no Impression", at: element) }
        if inLine.creatives.isEmpty { violation("<InLine> has no Creative", at: element) }
        if Self.isVersion(version, atLeast: 4, 0) {
            for (offset, creative) in inLine.creatives.enumerated() where creative.universalAdIDs.isEmpty {
                violation("<Creative> \(offset + 1) has no UniversalAdId (required from VAST 4.0)", at: element)
            }
        }
        if inLine.adServingID == nil, Self.isVersion(version, atLeast: 4, 1) {
            violation("<InLine> has no AdServingId (required from VAST 4.1)", at: element)
        }
        return inLine
    }

    mutating func readWrapper(_ element: Int) -> Wrapper {
        var wrapper = Wrapper(
            followAdditionalWrappers: boolAttribute("followAdditionalWrappers", element),
            allowMultipleAds: boolAttribute("allowMultipleAds", element),
            fallbackOnNoAd: boolAttribute("fallbackOnNoAd", element))
        var extensionVerifications: [Verification] = []
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "AdSystem": wrapper.adSystem = AdSystem(name: text(child), version: attribute("version", child))
            case "VASTAdTagURI", "VASTAdTagURL": wrapper.vastAdTagURI = urlText(child)
            case "Impression":
                if let url = urlText(child) {
                    wrapper.impressions.append(Impression(id: attribute("id", child), url: url))
                }
            case "Error":
                if let url = urlText(child) { wrapper.errors.append(url) }
            case "Pricing": wrapper.pricing = readPricing(child)
            case "ViewableImpression": wrapper.viewableImpression = readViewableImpression(child)
            case "AdVerifications": wrapper.adVerifications.append(contentsOf: readVerifications(child))
            case "BlockedAdCategories":
                wrapper.blockedAdCategories.append(
                    AdCategory(authority: attribute("authority", child), value: text(child)))
            case "Creatives": wrapper.creatives = readCreatives(child, inline: false)
            case "Extensions":
                wrapper.extensions.append(contentsOf: extensions(child))
                extensionVerifications.append(contentsOf: verificationsInExtensions(child))
            default: break
            }
        }
        if wrapper.adVerifications.isEmpty { wrapper.adVerifications = extensionVerifications }
        if wrapper.adSystem == nil { violation("<Wrapper> has no AdSystem", at: element) }
        if wrapper.vastAdTagURI == nil { violation("<Wrapper> has no VASTAdTagURI", at: element) }
        if wrapper.impressions.isEmpty { violation("<Wrapper> has no Impression", at: element) }
        return wrapper
    }

    mutating func readPricing(_ element: Int) -> Pricing {
        Pricing(model: attribute("model", element), currency: attribute("currency", element), value: text(element))
    }

    mutating func readViewableImpression(_ element: Int) -> ViewableImpression {
        var result = ViewableImpression(id: attribute("id", element))
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            guard let url = urlText(child) else { continue }
            switch name(child) {
            case "Viewable": result.viewable.append(url)
            case "NotViewable": result.notViewable.append(url)
            case "ViewUndetermined": result.viewUndetermined.append(url)
            default: break
            }
        }
        return result
    }

    mutating func readVerifications(_ element: Int) -> [Verification] {
        var verifications: [Verification] = []
        for child in tree.childIndices(of: element) where name(Int(child)) == "Verification" {
            let child = Int(child)
            var verification = Verification(vendor: attribute("vendor", child))
            for part in tree.childIndices(of: child) {
                let part = Int(part)
                switch name(part) {
                case "JavaScriptResource":
                    if let url = urlText(part) {
                        verification.javaScriptResources.append(
                            .init(
                                apiFramework: attribute("apiFramework", part),
                                browserOptional: boolAttribute("browserOptional", part), url: url))
                    }
                case "ExecutableResource":
                    if let url = urlText(part) {
                        verification.executableResources.append(
                            .init(
                                apiFramework: attribute("apiFramework", part), type: attribute("type", part), url: url))
                    }
                case "VerificationParameters": verification.verificationParameters = text(part)
                case "TrackingEvents": verification.trackingEvents = trackingEvents(part)
                default: break
                }
            }
            verifications.append(verification)
        }
        return verifications
    }

    /// The verifications of an `<Extension type="AdVerifications">`, where
    /// the Open Measurement guidance puts them before VAST 4.1 had its own
    /// `<AdVerifications>` (and where IMA and vast-client-js read them):
    /// an `<AdVerifications>` inside the extension, or its `<Verification>`s
    /// directly. Used only when the ad has no `<AdVerifications>` element,
    /// since a tag written for both carries the same verifications twice.
    mutating func verificationsInExtensions(_ element: Int) -> [Verification] {
        var verifications: [Verification] = []
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            guard name(child) == "Extension", tree.unprefixedAttribute("type", of: child) == "AdVerifications"
            else { continue }
            verifications.append(contentsOf: readVerifications(child))
            for part in tree.childIndices(of: child) where name(Int(part)) == "AdVerifications" {
                verifications.append(contentsOf: readVerifications(Int(part)))
            }
        }
        return verifications
    }

    /// True when a version string such as `4.2` is at least `major.minor`.
    static func isVersion(_ version: String, atLeast major: Int, _ minor: Int) -> Bool {
        let parts = version.split(separator: ".").map { Int($0) ?? 0 }
        let actualMajor = parts.first ?? 0
        let actualMinor = parts.count > 1 ? parts[1] : 0
        return (actualMajor, actualMinor) >= (major, minor)
    }
}
