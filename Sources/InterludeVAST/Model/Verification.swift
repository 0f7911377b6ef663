/// `<Verification vendor="…">` inside `AdVerifications` (Open Measurement).
public struct Verification: Hashable, Sendable {
    /// `<JavaScriptResource apiFramework="omid" browserOptional="…">`.
    public struct JavaScriptResource: Hashable, Sendable {
        public var apiFramework: String?
        public var browserOptional: Bool?
        public var url: VASTURLTemplate
        public init(apiFramework: String? = nil, browserOptional: Bool? = nil, url: VASTURLTemplate) {
            self.apiFramework = apiFramework
            self.browserOptional = browserOptional
            self.url = url
        }
    }

    /// `<ExecutableResource apiFramework="…" type="…">`.
    public struct ExecutableResource: Hashable, Sendable {
        public var apiFramework: String?
        public var type: String?
        public var url: VASTURLTemplate
        public init(apiFramework: String? = nil, type: String? = nil, url: VASTURLTemplate) {
            self.apiFramework = apiFramework
            self.type = type
            self.url = url
        }
    }

    public var vendor: String?
    public var javaScriptResources: [JavaScriptResource]
    public var executableResources: [ExecutableResource]
    /// `VerificationParameters`, passed to the verification script as is.
    public var verificationParameters: String?
    /// Tracking (VAST 4.1: `verificationNotExecuted`).
    public var trackingEvents: [TrackingEvent]

    public init(
        vendor: String? = nil, javaScriptResources: [JavaScriptResource] = [],
        executableResources: [ExecutableResource] = [], verificationParameters: String? = nil,
        trackingEvents: [TrackingEvent] = []
    ) {
        self.vendor = vendor
        self.javaScriptResources = javaScriptResources
        self.executableResources = executableResources
        self.verificationParameters = verificationParameters
        self.trackingEvents = trackingEvents
    }
}
