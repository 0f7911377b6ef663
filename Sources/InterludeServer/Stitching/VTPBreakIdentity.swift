import InterludeHLS

/// How a break the origin marks becomes a pod of pod serving: its identifier
/// (the same for every viewer of the channel) and its duration. Pure.
enum VTPBreakIdentity {
    /// `ad_break_id/{id}` for the origin's break ID (the DATERANGE ID, or
    /// `cue-{sequence}` for CUE-style markers) when it is already a valid ad
    /// break ID (a–z, 0–9, `-`, at most 48); otherwise the ID lower-cased
    /// with other characters as `-`, cut to 39, then `-` and 8 hex digits of
    /// its SHA-256, so distinct IDs stay distinct.
    static func podIdentifier(breakID: String) -> PodIdentifier {
        if let valid = PodIdentifier(kind: "ad_break_id", value: breakID) { return valid }
        let cleaned = String(
            String.UnicodeScalarView(
                breakID.lowercased().unicodeScalars.map { scalar in
                    (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "-" ? scalar : "-"
                }))
        let digest = Hex.encode(Array(SHA256.hash(breakID).prefix(4)))
        let id = String(cleaned.prefix(39)) + "-" + digest
        return PodIdentifier(kind: "ad_break_id", value: id) ?? .adBreakID(digest)
    }

    /// `pd` in milliseconds for a break: its announced duration, or
    /// ``VTPService/assumedBreakDuration`` without one, at most `maximum`;
    /// nil for a break under a second (it keeps its content).
    static func podDuration(_ request: LiveBreakRequest, maximum: Int) -> Int? {
        let seconds = request.plannedDuration ?? VTPService.assumedBreakDuration
        guard seconds.isFinite, seconds >= 1 else { return nil }
        return min(Int((seconds * 1000).rounded()), maximum)
    }
}
