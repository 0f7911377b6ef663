import InterludeVAST

/// Errors a ``VideoDisplay`` reports, with the VAST code they map to.
public enum VideoDisplayError: Error, Sendable, Hashable {
    /// The media file was not found (401).
    case mediaNotFound
    /// The media file could not be decoded or shown (405).
    case cannotDisplay(String)

    /// The code for `[ERRORCODE]` and the ``AdError`` the manager reports.
    public var vastCode: VASTErrorCode {
        switch self {
        case .mediaNotFound: return .mediaFileNotFound
        case .cannotDisplay: return .mediaDisplayError
        }
    }
}
