/// Writes VAST and VMAP model values as XML.
///
/// URLs and text go into CDATA sections; a `]]>` inside a value is split
/// across two sections. For a model `x` as the parser makes them,
/// `parse(write(x)) == x` holds (text values are compared trimmed, as the
/// parser trims them; an element whose URL is empty is dropped on reading). Raw XML of
/// extensions is written as is and must be well-formed.
public struct VASTWriter: Sendable {
    /// Indent nested elements (default true); false writes one line.
    public var indented: Bool
    /// Write the `<?xml …?>` declaration (default true).
    public var includesDeclaration: Bool

    public init(indented: Bool = true, includesDeclaration: Bool = true) {
        self.indented = indented
        self.includesDeclaration = includesDeclaration
    }

    /// A VAST or VMAP document as XML text.
    public func write(_ document: AdDocument) -> String {
        switch document {
        case .vast(let vast): return write(vast)
        case .vmap(let vmap): return write(vmap)
        }
    }

    /// A VAST document as XML text.
    public func write(_ document: VASTDocument) -> String {
        var builder = XMLBuilder(indent: indented)
        if includesDeclaration { builder.declaration() }
        builder.writeVAST(document)
        return builder.output
    }

    /// A VMAP document as XML text.
    public func write(_ document: VMAPDocument) -> String {
        var builder = XMLBuilder(indent: indented)
        if includesDeclaration { builder.declaration() }
        builder.writeVMAP(document)
        return builder.output
    }
}

extension Bool {
    var xmlValue: String { self ? "true" : "false" }
}

extension Optional where Wrapped == Bool {
    var xmlValue: String? { map(\.xmlValue) }
}

extension Optional where Wrapped == Int {
    var xmlValue: String? { map(String.init) }
}

extension XMLBuilder {
    mutating func writeVAST(_ document: VASTDocument) {
        open("VAST", ["version": document.version.isEmpty ? nil : document.version])
        for url in document.errors { element("Error", text: url) }
        for ad in document.ads { writeAd(ad) }
        close("VAST")
    }

    mutating func writeAd(_ ad: Ad) {
        open(
            "Ad",
            [
                "id": ad.id, "sequence": ad.sequence.xmlValue, "conditionalAd": ad.conditionalAd.xmlValue,
                "adType": ad.adType?.rawValue,
            ])
        switch ad.content {
        case .inLine(let inLine): writeInLine(inLine)
        case .wrapper(let wrapper): writeWrapper(wrapper)
        }
        close("Ad")
    }

    mutating func writeInLine(_ inLine: InLine) {
        open("InLine")
        if let system = inLine.adSystem { element("AdSystem", ["version": system.version], text: system.name) }
        if let title = inLine.adTitle { element("AdTitle", text: title) }
        if let servingID = inLine.adServingID { element("AdServingId", text: servingID) }
        if let description = inLine.description { element("Description", text: description) }
        if let advertiser = inLine.advertiser { element("Advertiser", ["id": advertiser.id], text: advertiser.name) }
        if let pricing = inLine.pricing { writePricing(pricing) }
        for survey in inLine.surveys { element("Survey", ["type": survey.type], text: survey.url) }
        for url in inLine.errors { element("Error", text: url) }
        for impression in inLine.impressions { element("Impression", ["id": impression.id], text: impression.url) }
        for category in inLine.categories {
            element("Category", ["authority": category.authority], text: category.value)
        }
        if let viewable = inLine.viewableImpression { writeViewableImpression(viewable) }
        if !inLine.adVerifications.isEmpty { writeVerifications(inLine.adVerifications) }
        if let expires = inLine.expires { element("Expires", text: String(expires)) }
        if !inLine.creatives.isEmpty { writeCreatives(inLine.creatives) }
        if !inLine.extensions.isEmpty { writeExtensions(inLine.extensions, container: "Extensions", item: "Extension") }
        close("InLine")
    }

    mutating func writeWrapper(_ wrapper: Wrapper) {
        open(
            "Wrapper",
            [
                "followAdditionalWrappers": wrapper.followAdditionalWrappers.xmlValue,
                "allowMultipleAds": wrapper.allowMultipleAds.xmlValue,
                "fallbackOnNoAd": wrapper.fallbackOnNoAd.xmlValue,
            ])
        if let system = wrapper.adSystem { element("AdSystem", ["version": system.version], text: system.name) }
        if let uri = wrapper.vastAdTagURI { element("VASTAdTagURI", text: uri) }
        if let pricing = wrapper.pricing { writePricing(pricing) }
        for url in wrapper.errors { element("Error", text: url) }
        for impression in wrapper.impressions { element("Impression", ["id": impression.id], text: impression.url) }
        if let viewable = wrapper.viewableImpression { writeViewableImpression(viewable) }
        if !wrapper.adVerifications.isEmpty { writeVerifications(wrapper.adVerifications) }
        for category in wrapper.blockedAdCategories {
            element("BlockedAdCategories", ["authority": category.authority], text: category.value)
        }
        if !wrapper.creatives.isEmpty { writeCreatives(wrapper.creatives) }
        if !wrapper.extensions.isEmpty {
            writeExtensions(wrapper.extensions, container: "Extensions", item: "Extension")
        }
        close("Wrapper")
    }

    mutating func writePricing(_ pricing: Pricing) {
        element("Pricing", ["model": pricing.model, "currency": pricing.currency], text: pricing.value)
    }

    mutating func writeViewableImpression(_ viewable: ViewableImpression) {
        open("ViewableImpression", ["id": viewable.id])
        for url in viewable.viewable { element("Viewable", text: url) }
        for url in viewable.notViewable { element("NotViewable", text: url) }
        for url in viewable.viewUndetermined { element("ViewUndetermined", text: url) }
        close("ViewableImpression")
    }

    mutating func writeVerifications(_ verifications: [Verification]) {
        open("AdVerifications")
        for verification in verifications {
            open("Verification", ["vendor": verification.vendor])
            for resource in verification.javaScriptResources {
                element(
                    "JavaScriptResource",
                    ["apiFramework": resource.apiFramework, "browserOptional": resource.browserOptional.xmlValue],
                    text: resource.url)
            }
            for resource in verification.executableResources {
                element(
                    "ExecutableResource", ["apiFramework": resource.apiFramework, "type": resource.type],
                    text: resource.url)
            }
            if let parameters = verification.verificationParameters {
                element("VerificationParameters", text: parameters)
            }
            if !verification.trackingEvents.isEmpty { writeTrackingEvents(verification.trackingEvents) }
            close("Verification")
        }
        close("AdVerifications")
    }

    mutating func writeTrackingEvents(_ events: [TrackingEvent]) {
        open("TrackingEvents")
        for event in events {
            element("Tracking", ["event": event.event.rawValue, "offset": event.offset?.formatted], text: event.url)
        }
        close("TrackingEvents")
    }

    mutating func writeExtensions(_ extensions: [VASTExtension], container: String, item: String) {
        open(container)
        for ext in extensions {
            var attributes: [(String, String?)] = [("type", ext.type)]
            for key in ext.attributes.keys.sorted() { attributes.append((key, ext.attributes[key])) }
            rawElement(item, attributeList: attributes, raw: ext.rawXML)
        }
        close(container)
    }

    mutating func writeClick(_ name: String, _ click: ClickURL) {
        element(name, ["id": click.id], text: click.url)
    }

    mutating func writeAdParameters(_ parameters: AdParameters) {
        element("AdParameters", ["xmlEncoded": parameters.xmlEncoded.xmlValue], text: parameters.value)
    }

    mutating func writeResource(_ resource: CreativeResource) {
        switch resource {
        case .staticResource(let creativeType, let url):
            element("StaticResource", ["creativeType": creativeType], text: url)
        case .iframe(let url):
            element("IFrameResource", text: url)
        case .html(let markup):
            element("HTMLResource", text: markup)
        }
    }
}
