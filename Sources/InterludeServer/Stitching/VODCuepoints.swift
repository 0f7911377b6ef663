import InterludeHLS

/// Where a VOD title's pods go, as the VTP asks pod serving for them: pure.
///
/// A pre-roll at 0 when the catalog's ad rules have one, the rules' mid-roll
/// offsets that fall inside the content (or, when none does, mid-rolls at
/// a third and two thirds of the content, so every title shows mid-rolls),
/// and a post-roll at the end when the rules have one. Mid-rolls move to the
/// nearest segment boundary, so the times pod serving plans (and its
/// metadata tells the SDK) are where the pods really are.
enum VODCuepoints {
    /// Content seconds of each break, ascending, to the millisecond.
    static func times(for content: MediaPlaylist, rules: AdRules) -> [Double] {
        let duration = content.totalDuration
        guard duration > 0, !content.segments.isEmpty else { return [] }
        var midrolls = rules.midrolls.compactMap(\.offset).filter { $0 > 0 && $0 < duration }
        if midrolls.isEmpty { midrolls = [duration / 3, duration * 2 / 3] }
        var times: [Double] = rules.preroll != nil ? [0] : []
        for offset in midrolls.sorted() {
            let boundary = VODStitcher.boundary(nearest: offset, in: content)
            // A mid-roll snapped onto either end is the pre- or post-roll's place.
            guard boundary > 0, boundary < content.segments.count else { continue }
            let time = milliseconds(content.boundaryStart(boundary))
            if times.last.map({ $0 < time }) ?? true { times.append(time) }
        }
        if rules.postroll != nil { times.append(milliseconds(duration)) }
        return times
    }

    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
