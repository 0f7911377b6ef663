import Foundation

/// Replays successive reloads of one live media playlist and reports every
/// break of the numbering rules of RFC 8216bis 6.2.1 and 6.2.2: between two
/// reloads MEDIA-SEQUENCE rises by exactly the segments that left the front,
/// the segments that stay are the previous window's tail unchanged (URI,
/// duration, tags, discontinuity number, date), DISCONTINUITY-SEQUENCE rises
/// by exactly the DISCONTINUITY tags that left, TARGETDURATION stays, and no
/// media sequence number ever names another segment. Within each reload,
/// every PROGRAM-DATE-TIME follows from the previous segment's (a stitched
/// stream's content resumes on time).
///
/// Feed it each reload in order with ``check(_:)``; ``findings`` collects
/// them all. No IMA counterpart (a server-side conformance check).
public struct LiveReloadChecker: Sendable {
    /// How strict the checker is.
    public struct Options: Sendable, Hashable {
        /// Dates may differ from the expected by this many seconds (default 0.002).
        public var dateTolerance: Double
        /// Check PROGRAM-DATE-TIME continuity within each reload (default true).
        public var requiresContinuousDates: Bool

        /// Creates options with the defaults above.
        public init(dateTolerance: Double = 0.002, requiresContinuousDates: Bool = true) {
            self.dateTolerance = dateTolerance
            self.requiresContinuousDates = requiresContinuousDates
        }
    }

    private struct Seen: Sendable {
        var uri: String
        var duration: String
        var discontinuity: UInt64
        var date: Date?
    }

    /// The options in force.
    public var options: Options
    /// Every finding so far, in reload order.
    public private(set) var findings: [HLSFinding] = []
    /// Reloads checked so far.
    public private(set) var reloads = 0
    private var previous: MediaPlaylist?
    private var seen: [UInt64: Seen] = [:]

    /// Creates a checker.
    public init(options: Options = Options()) { self.options = options }

    /// Checks every reload in order and returns all findings.
    public static func check(_ reloads: [MediaPlaylist], options: Options = Options()) -> [HLSFinding] {
        var checker = LiveReloadChecker(options: options)
        for playlist in reloads { checker.check(playlist) }
        return checker.findings
    }

    /// Checks the next reload against the ones before; returns its findings.
    @discardableResult
    public mutating func check(_ playlist: MediaPlaylist) -> [HLSFinding] {
        var found = checkWithinReload(playlist)
        if let previous {
            found += HLSValidator.compareReloads(previous: previous, current: playlist)
            found += checkSlide(from: previous, to: playlist)
        }
        for segment in playlist.segments {
            let facts = Seen(
                uri: segment.uri, duration: segment.duration.text, discontinuity: segment.discontinuitySequence,
                date: segment.programDateTime)
            if let known = seen[segment.mediaSequence] {
                if let problem = difference(known, facts) {
                    found.append(
                        HLSFinding(
                            .error, .segmentChangedBetweenReloads,
                            "reload \(reloads + 1): media sequence \(segment.mediaSequence) \(problem)",
                            line: segment.line))
                }
            } else {
                seen[segment.mediaSequence] = facts
            }
        }
        previous = playlist
        reloads += 1
        findings += found
        return found
    }

    private func checkWithinReload(_ playlist: MediaPlaylist) -> [HLSFinding] {
        var found: [HLSFinding] = []
        let target = playlist.targetDuration ?? 0
        for (index, segment) in playlist.segments.enumerated() {
            if HLSNumberFormat.wholeSeconds(segment.duration.value) > target {
                found.append(
                    HLSFinding(
                        .error, .segmentLongerThanTarget,
                        "reload \(reloads + 1): \(segment.uri) lasts \(segment.duration) > TARGETDURATION \(target)",
                        line: segment.line))
            }
            guard options.requiresContinuousDates, index > 0 else { continue }
            let before = playlist.segments[index - 1]
            guard let date = segment.programDateTime, let previousDate = before.programDateTime else { continue }
            let expected = previousDate.addingTimeInterval(before.duration.value)
            if abs(date.timeIntervalSince(expected)) > options.dateTolerance {
                found.append(
                    HLSFinding(
                        .error, .programDateTimeDiscontinuous,
                        "reload \(reloads + 1): \(segment.uri) is dated \(HLSDateFormat.format(date)), expected \(HLSDateFormat.format(expected)) after \(before.uri)",
                        line: segment.line))
            }
        }
        return found
    }

    private func checkSlide(from previous: MediaPlaylist, to current: MediaPlaylist) -> [HLSFinding] {
        var found: [HLSFinding] = []
        if previous.targetDuration != current.targetDuration {
            found.append(
                HLSFinding(
                    .error, .targetDurationChanged,
                    "reload \(reloads + 1): TARGETDURATION went from \(previous.targetDuration ?? 0) to \(current.targetDuration ?? 0)",
                    line: current.headerTag(HLSTagName.targetDuration)?.line ?? 0))
        }
        guard current.mediaSequence >= previous.mediaSequence else { return found }
        let removed = current.mediaSequence - previous.mediaSequence
        guard removed < UInt64(previous.segments.count) else { return found }
        let kept = previous.segments[Int(removed)...]
        // Start times are relative to each window; everything else must match.
        for (old, new) in zip(kept, current.segments)
        where old.uri != new.uri || old.duration != new.duration || old.title != new.title || old.tags != new.tags
            || old.tagsAfterInfo != new.tagsAfterInfo || old.mediaSequence != new.mediaSequence
            || old.discontinuitySequence != new.discontinuitySequence
        {
            found.append(
                HLSFinding(
                    .error, .windowRewrittenBetweenReloads,
                    "reload \(reloads + 1): media sequence \(new.mediaSequence) was \(old.uri) with \(old.tags.count) tags, now \(new.uri) with \(new.tags.count) tags",
                    line: new.line))
            break
        }
        if current.segments.count < kept.count {
            found.append(
                HLSFinding(
                    .error, .windowRewrittenBetweenReloads,
                    "reload \(reloads + 1): \(kept.count - current.segments.count) segments left from the end of the window",
                    line: 0))
        }
        return found
    }

    private func difference(_ known: Seen, _ facts: Seen) -> String? {
        if known.uri != facts.uri { return "was \(known.uri), now \(facts.uri)" }
        if known.duration != facts.duration { return "lasted \(known.duration), now \(facts.duration)" }
        if known.discontinuity != facts.discontinuity {
            return "had discontinuity sequence \(known.discontinuity), now \(facts.discontinuity)"
        }
        switch (known.date, facts.date) {
        case (let old?, let new?) where abs(old.timeIntervalSince(new)) > options.dateTolerance:
            return "was dated \(HLSDateFormat.format(old)), now \(HLSDateFormat.format(new))"
        default: return nil
        }
    }
}
