import Foundation

extension MediaPlaylist {
    /// The ad breaks of the playlist in start-time order, whatever their
    /// marker style: CUE-OUT/CUE-IN, EXT-OATCLS-SCTE35, EXT-X-SPLICEPOINT-SCTE35,
    /// DATERANGE with SCTE35-OUT/IN, and interstitial DATERANGEs.
    public var adBreaks: [AdBreak] {
        var scanner = CueBreakScanner(playlist: self)
        for index in 0..<segments.count {
            scanner.scan(segments[index].tags, at: index)
            if !segments[index].tagsAfterInfo.isEmpty { scanner.scan(segments[index].tagsAfterInfo, at: index) }
        }
        scanner.scan(trailingTags, at: segments.count)
        let sawDateRange = scanner.sawDateRange
        var breaks = scanner.finish()
        guard sawDateRange else { return breaks }
        let dateRangeBreaks = dateRangeBreaks()
        if dateRangeBreaks.isEmpty { return breaks }
        breaks += dateRangeBreaks
        return breaks.sorted { $0.startTime < $1.startTime }
    }

    /// The start time of segment `index`, or the playlist's end for `segments.count`.
    func boundaryTime(_ index: Int) -> Double {
        index < segments.count ? segments[index].startTime : totalDuration
    }

    // MARK: CUE-style markers

    /// Bytes of a base64 or hex SCTE-35 payload.
    static func payloadBytes(_ text: String) -> [UInt8]? {
        if let bytes = HLSHex.decode(text), text.hasPrefix("0x") || text.hasPrefix("0X") { return bytes }
        return Data(base64Encoded: text).map { [UInt8]($0) }
    }

    // MARK: DATERANGE markers

    private func dateRangeBreaks() -> [AdBreak] {
        // RFC 8216bis 4.4.5.1: tags with one ID describe one range; later
        // ones add attributes. Keep the segment each was written before.
        var order: [String] = []
        var merged: [String: (range: DateRange, firstIndex: Int, inIndex: Int?)] = [:]
        for index in 0...segments.count {
            let tags: [HLSTag] = index < segments.count ? segments[index].tags : trailingTags
            for tag in tags where tag.hasName(HLSTagName.dateRange) {
                let range = DateRange(tag: tag)
                guard let id = range.id else { continue }
                if var entry = merged[id] {
                    for attribute in range.attributes where entry.range.attributes[attribute.name] == nil {
                        entry.range.attributes[attribute.name] = attribute.value
                    }
                    if range.scte35In != nil { entry.inIndex = index }
                    merged[id] = entry
                } else {
                    order.append(id)
                    merged[id] = (range, index, range.scte35In != nil ? index : nil)
                }
            }
        }
        return order.compactMap { id -> AdBreak? in
            guard let entry = merged[id] else { return nil }
            let range = entry.range
            let isInterstitial = range.isInterstitial
            guard isInterstitial || range.scte35Out != nil || range.scte35In != nil else { return nil }
            let startIndex = range.startDate.flatMap(segmentIndex(at:)) ?? entry.firstIndex
            var startTime = boundaryTime(startIndex)
            if let date = range.startDate, startIndex < segments.count,
                let segmentDate = segments[startIndex].programDateTime
            {
                startTime += date.timeIntervalSince(segmentDate)
            }
            var actual = range.duration
            if actual == nil, let startDate = range.startDate, let endDate = range.endDate {
                actual = endDate.timeIntervalSince(startDate)
            }
            let interstitial = isInterstitial ? Interstitial(range) : nil
            var covered = actual ?? range.plannedDuration
            // An interstitial plays over the primary content; without an
            // X-RESUME-OFFSET it resumes where it left (the asset's own length
            // is not in the playlist), so it covers no segments.
            if let interstitial { covered = interstitial.resumeOffset ?? covered ?? 0 }
            var endIndex: Int
            if let covered {
                endIndex = startIndex
                while endIndex < segments.count, boundaryTime(endIndex) < startTime + covered - 0.001 { endIndex += 1 }
            } else if let inIndex = entry.inIndex {
                endIndex = inIndex
                actual = boundaryTime(inIndex) - startTime
            } else {
                endIndex = segments.count
            }
            let complete = actual != nil || entry.inIndex != nil || (isInterstitial && covered != nil)
            let planned =
                range.plannedDuration ?? range.scte35Out.flatMap { try? SpliceInfoSection(bytes: $0) }?.durationSeconds
            return AdBreak(
                style: isInterstitial ? .interstitial : .dateRange, id: id, startTime: startTime,
                startDate: range.startDate,
                plannedDuration: planned, actualDuration: actual, segmentRange: startIndex..<max(startIndex, endIndex),
                isComplete: complete, scte35Out: range.scte35Out, scte35In: range.scte35In, interstitial: interstitial,
                line: range.line)
        }
    }
}
