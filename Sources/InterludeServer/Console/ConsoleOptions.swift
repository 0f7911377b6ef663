import Foundation

/// How the web console at `/console` behaves (`interlude serve` options).
public struct ConsoleOptions: Sendable {
    /// Let the tag inspector fetch from hosts other than this machine's
    /// loopback (`--console-allow-remote-tags`). Default false: every URL of
    /// a wrapper chain, every redirect, and every address a host name
    /// resolves to must be loopback, and only plain http is fetched.
    public var allowsRemoteTags: Bool
    /// Seconds a tag inspection may take, the whole wrapper chain included. Default 10.
    public var inspectionTimeout: TimeInterval
    /// Inspections running at once; more get 503 with `Retry-After`. Default 4.
    public var maxConcurrentInspections: Int
    /// How tag hosts are resolved and checked (tests inject a resolver).
    package var hostPolicy: TagHostPolicy

    public init(allowsRemoteTags: Bool = false, inspectionTimeout: TimeInterval = 10, maxConcurrentInspections: Int = 4)
    {
        self.allowsRemoteTags = allowsRemoteTags
        self.inspectionTimeout = inspectionTimeout
        self.maxConcurrentInspections = maxConcurrentInspections
        hostPolicy = TagHostPolicy()
    }
}
