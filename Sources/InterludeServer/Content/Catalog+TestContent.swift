extension Catalog {
    /// A small catalog for tests that make real media quickly: three short
    /// creatives (3, 5 and 8 s, one 360p MP4 each), a two-profile ladder
    /// (180p, 360p), a 30 s VOD title `test-film`, and a 24 s loop as two
    /// channels with an 8 s break every 24 s: `test-live` (DATERANGE
    /// SCTE-35) and `test-live-cue` (CUE-OUT/CUE-IN), a 5-segment window.
    public static let podServingTest = Catalog(
        creatives: [
            CatalogCreative(
                id: "test-ad-3s", title: "Test Ad Three", advertiser: "Interlude Tests", duration: 3,
                clickThrough: "https://example.com/test-ad-3s",
                renditions: [Rendition(width: 640, height: 360, bitrate: 600)]),
            CatalogCreative(
                id: "test-ad-5s", title: "Test Ad Five", advertiser: "Interlude Tests", duration: 5,
                clickThrough: "https://example.com/test-ad-5s", skipOffset: 2,
                renditions: [Rendition(width: 640, height: 360, bitrate: 600)]),
            CatalogCreative(
                id: "test-ad-8s", title: "Test Ad Eight", advertiser: "Interlude Tests", duration: 8,
                clickThrough: "https://example.com/test-ad-8s",
                renditions: [Rendition(width: 640, height: 360, bitrate: 600)]),
        ],
        adRules: AdRules(preroll: BreakRule(podSize: 1)),
        content: ContentCatalog(
            segmentDuration: 4,
            profiles: [
                EncodingProfile(id: "180p", width: 320, height: 180, videoBitrate: 300, audioBitrate: 64),
                EncodingProfile(id: "360p", width: 640, height: 360, videoBitrate: 700),
            ],
            titles: [CatalogTitle(id: "test-film", title: "Test Film", duration: 30)],
            channels: [
                CatalogChannel(
                    id: "test-live", title: "Test Live", sourceDuration: 24, windowSegments: 5, breakInterval: 24,
                    breakDuration: 8, signaling: .dateRange),
                CatalogChannel(
                    id: "test-live-cue", title: "Test Live", sourceDuration: 24, windowSegments: 5, breakInterval: 24,
                    breakDuration: 8, signaling: .cue),
            ]))
}
