import Interlude
import InterludeVAST

extension InspectionReport.AdReport {
    /// True when the SDK would play one of the linear's media files: the
    /// same choice as ``MediaFileSelector`` with the default preferences
    /// (MP4, HLS, QuickTime, WebM, 3GPP; no VPAID or other API framework),
    /// so an ad with only VPAID or Flash files is not playable (error 403).
    static func hasPlayableMedia(_ linear: Linear?) -> Bool {
        guard let linear else { return false }
        return MediaFileSelector.select(from: linear.mediaFiles, preferences: MediaPreferences()) != nil
    }
}
