/// A URL as written in a document: trimmed of whitespace and CDATA, macros
/// such as `[ERRORCODE]` left in place. Kept as text because a URL template
/// with macros is often not a valid `URL` until the macros are filled.
public typealias VASTURLTemplate = String

/// `<AdSystem version="…">name</AdSystem>`.
public struct AdSystem: Hashable, Sendable {
    public var name: String
    public var version: String?
    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}

/// An `<Impression id="…">` URL.
public struct Impression: Hashable, Sendable {
    public var id: String?
    public var url: VASTURLTemplate
    public init(id: String? = nil, url: VASTURLTemplate) {
        self.id = id
        self.url = url
    }
}

/// `<Category authority="…">` (also used for `BlockedAdCategories`).
public struct AdCategory: Hashable, Sendable {
    public var authority: String?
    public var value: String
    public init(authority: String? = nil, value: String) {
        self.authority = authority
        self.value = value
    }
}

/// `<Advertiser id="…">name</Advertiser>`.
public struct Advertiser: Hashable, Sendable {
    public var id: String?
    public var name: String
    public init(id: String? = nil, name: String) {
        self.id = id
        self.name = name
    }
}

/// `<Pricing model="CPM" currency="USD">1.09</Pricing>`.
public struct Pricing: Hashable, Sendable {
    /// `CPM`, `CPC`, `CPE` or `CPV`, as written.
    public var model: String?
    /// ISO 4217 currency code.
    public var currency: String?
    /// The price as written (kept as text so no rounding changes it).
    public var value: String
    public init(model: String? = nil, currency: String? = nil, value: String) {
        self.model = model
        self.currency = currency
        self.value = value
    }
}

/// `<Survey type="…">url</Survey>`.
public struct Survey: Hashable, Sendable {
    public var type: String?
    public var url: VASTURLTemplate
    public init(type: String? = nil, url: VASTURLTemplate) {
        self.type = type
        self.url = url
    }
}

/// `<UniversalAdId idRegistry="…">value</UniversalAdId>`. VAST 4.0 wrote the
/// value in an `idValue` attribute; both forms are read into ``value``.
public struct UniversalAdID: Hashable, Sendable {
    public var idRegistry: String
    public var value: String
    public init(idRegistry: String, value: String) {
        self.idRegistry = idRegistry
        self.value = value
    }
}

/// `<ViewableImpression>` with its Viewable, NotViewable and ViewUndetermined URLs.
public struct ViewableImpression: Hashable, Sendable {
    public var id: String?
    public var viewable: [VASTURLTemplate]
    public var notViewable: [VASTURLTemplate]
    public var viewUndetermined: [VASTURLTemplate]
    public init(
        id: String? = nil, viewable: [VASTURLTemplate] = [], notViewable: [VASTURLTemplate] = [],
        viewUndetermined: [VASTURLTemplate] = []
    ) {
        self.id = id
        self.viewable = viewable
        self.notViewable = notViewable
        self.viewUndetermined = viewUndetermined
    }
}

/// A click URL with its optional `id` (ClickThrough, ClickTracking,
/// CustomClick and their companion, non-linear and icon forms).
public struct ClickURL: Hashable, Sendable {
    public var id: String?
    public var url: VASTURLTemplate
    public init(id: String? = nil, url: VASTURLTemplate) {
        self.id = id
        self.url = url
    }
}

/// `<AdParameters xmlEncoded="…">` content.
public struct AdParameters: Hashable, Sendable {
    public var xmlEncoded: Bool?
    public var value: String
    public init(xmlEncoded: Bool? = nil, value: String) {
        self.xmlEncoded = xmlEncoded
        self.value = value
    }
}
