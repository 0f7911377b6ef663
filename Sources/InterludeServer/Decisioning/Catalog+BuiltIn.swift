extension Catalog {
    /// The default catalog: four creatives of 6, 10, 15 and 30 seconds in
    /// 360p, 540p and 720p, skippable and not, UI-hideable and not; a pre-roll,
    /// two mid-rolls and a post-roll.
    public static let builtIn = Catalog(
        creatives: [
            CatalogCreative(
                id: "lighthouse-coffee-6s", title: "Lighthouse Coffee", advertiser: "Lighthouse Coffee Roasters",
                duration: 6, clickThrough: "https://example.com/lighthouse-coffee", skipOffset: nil, uiHideable: false),
            CatalogCreative(
                id: "orbit-bikes-10s", title: "Orbit Bikes", advertiser: "Orbit Cycles", duration: 10,
                clickThrough: "https://example.com/orbit-bikes", skipOffset: 5, uiHideable: true),
            CatalogCreative(
                id: "meadow-tea-15s", title: "Meadow Tea", advertiser: "Meadow Tea Company", duration: 15,
                clickThrough: "https://example.com/meadow-tea", skipOffset: 5, uiHideable: false),
            CatalogCreative(
                id: "atlas-travel-30s", title: "Atlas Travel", advertiser: "Atlas Travel Group", duration: 30,
                clickThrough: "https://example.com/atlas-travel", skipOffset: 10, uiHideable: true),
        ],
        adRules: AdRules(
            preroll: BreakRule(podSize: 1),
            midrolls: [BreakRule(offset: 300, podSize: 2), BreakRule(offset: 600, podSize: 3)],
            postroll: BreakRule(podSize: 1)))
}

extension Catalog {
    /// The demo's schedule over the built-in creatives: a skippable pre-roll
    /// whose UI is hideable, a mid-roll pod of three at 30 s and a post-roll,
    /// so a one-minute piece of content shows every kind of break.
    public static let demo = Catalog(
        creatives: builtIn.creatives,
        adRules: AdRules(
            preroll: BreakRule(podSize: 1, ads: ["orbit-bikes-10s"]),
            midrolls: [
                BreakRule(offset: 30, podSize: 3, ads: ["lighthouse-coffee-6s", "meadow-tea-15s", "atlas-travel-30s"])
            ],
            postroll: BreakRule(podSize: 1, ads: ["lighthouse-coffee-6s"])),
        // Client-side ads only: no stream media to make before the demo plays.
        content: .none)
}
