import InterludeHLS

/// The multivariant playlist the VTP answers with: the origin's variants
/// that match a profile of the ladder the ads are conditioned to (by
/// RESOLUTION), each pointing at the VTP's stitched media playlist of that
/// profile. Pure.
enum VTPMultivariant {
    /// The variants of `origin` the VTP can stitch, in the origin's order:
    /// its attributes, BANDWIDTH and AVERAGE-BANDWIDTH raised to the ladder's
    /// measured figures (which cover the ads and slate stitched in), the URI
    /// `uri(profile)`. Tags other than variants are kept, except I-frame
    /// playlists (not stitched). Throws 502 when the origin has alternate
    /// renditions with their own playlists (EXT-X-MEDIA with URI: their
    /// segments would need stitching too) or no variant of the ladder.
    static func stitched(
        _ origin: MultivariantPlaylist, ladder: [EncodingProfile], source: String,
        uri: (EncodingProfile) -> String
    ) throws(HTTPError) -> (playlist: MultivariantPlaylist, profiles: [EncodingProfile]) {
        if origin.renditions.contains(where: { $0.uri != nil }) {
            throw HTTPError(
                status: 502,
                message: "\(source): alternate renditions with their own playlists (EXT-X-MEDIA URI) cannot be stitched"
            )
        }
        var entries: [MultivariantPlaylist.Entry] = []
        var profiles: [EncodingProfile] = []
        for entry in origin.entries {
            switch entry {
            case .tag(let tag):
                if tag.name == HLSTagName.iFrameStreamInf && !tag.isComment { continue }
                entries.append(entry)
            case .variant(var variant):
                guard let resolution = variant.resolution,
                    let profile = ladder.first(where: { $0.width == resolution.width && $0.height == resolution.height }
                    ),
                    !profiles.contains(where: { $0.id == profile.id })
                else { continue }
                let bandwidth = max(variant.bandwidth ?? 0, UInt64(max(0, profile.bandwidth)))
                variant.attributes["BANDWIDTH"] = .integer(bandwidth)
                if let average = variant.averageBandwidth {
                    variant.attributes["AVERAGE-BANDWIDTH"] = .integer(
                        min(bandwidth, max(average, UInt64(max(0, profile.averageBandwidth)))))
                }
                variant.uri = uri(profile)
                variant.tagsBeforeURI = []
                entries.append(.variant(variant))
                profiles.append(profile)
            }
        }
        guard !profiles.isEmpty else {
            let offered = origin.variants.compactMap { $0.resolution.map { "\($0.width)x\($0.height)" } }
            throw HTTPError(
                status: 502,
                message:
                    "\(source) offers no variant of the ladder the ads are conditioned to (\(ladder.map { "\($0.width)x\($0.height)" }.joined(separator: ", "))); it has \(offered.isEmpty ? "none with RESOLUTION" : offered.joined(separator: ", "))"
            )
        }
        return (MultivariantPlaylist(entries: entries), profiles)
    }
}
