import InterludeVAST

extension AdDecisioner {
    /// One break of the schedule with its id and VMAP time offset.
    public struct ScheduledBreak: Sendable, Hashable {
        /// `breakId`: `preroll`, `midroll-1`, …, `postroll`.
        public var id: String
        /// VMAP `timeOffset`: `start`, a time, or `end`.
        public var timeOffset: BreakTimeOffset
        /// The catalog rule the break comes from.
        public var rule: BreakRule
    }

    /// The catalog's schedule: pre-roll, mid-rolls by offset, post-roll.
    public var schedule: [ScheduledBreak] {
        var breaks: [ScheduledBreak] = []
        if let preroll = catalog.adRules.preroll {
            breaks.append(ScheduledBreak(id: "preroll", timeOffset: .start, rule: preroll))
        }
        let midrolls = catalog.adRules.midrolls.sorted { ($0.offset ?? 0) < ($1.offset ?? 0) }
        for (index, rule) in midrolls.enumerated() {
            breaks.append(
                ScheduledBreak(
                    id: "midroll-\(index + 1)", timeOffset: .time(VASTTime(seconds: rule.offset ?? 0)), rule: rule))
        }
        if let postroll = catalog.adRules.postroll {
            breaks.append(ScheduledBreak(id: "postroll", timeOffset: .end, rule: postroll))
        }
        return breaks
    }

    /// The `/vmap` document. Each break's source is an AdTagURI back to
    /// `/vast`, or (with `embed`) the VAST itself as VASTAdData.
    public func vmap(_ options: AdRequestOptions, links: ServerLinks) throws(HTTPError) -> VMAPDocument {
        var breaks: [AdBreak] = []
        for scheduled in schedule {
            var breakOptions = options
            breakOptions.adIDs = scheduled.rule.ads
            breakOptions.podSize = scheduled.rule.ads == nil ? scheduled.rule.podSize : nil
            if breakOptions.version == "2.0" { breakOptions.version = "3.0" }  // pods need VAST 3
            let content: AdSource.Content
            if options.embed {
                content = .vastAdData(try vast(breakOptions, links: links))
            } else {
                content = .adTagURI(
                    templateType: "vast3",
                    url: links.url("/vast", breakOptions.queryParameters + [("break", scheduled.id)]))
            }
            let trackingAd = "break-\(scheduled.id)"
            breaks.append(
                AdBreak(
                    timeOffset: scheduled.timeOffset, breakTypes: [.linear], breakID: scheduled.id,
                    adSource: AdSource(
                        id: scheduled.id, allowMultipleAds: true, followRedirects: true, content: content),
                    trackingEvents: [
                        BreakTrackingEvent(event: .breakStart, url: links.beacon(ad: trackingAd, event: "breakStart")),
                        BreakTrackingEvent(event: .breakEnd, url: links.beacon(ad: trackingAd, event: "breakEnd")),
                        BreakTrackingEvent(event: .error, url: links.beacon(ad: trackingAd, event: "error")),
                    ]))
        }
        return VMAPDocument(version: "1.0", adBreaks: breaks)
    }
}
