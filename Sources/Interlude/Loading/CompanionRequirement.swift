import Foundation
import InterludeVAST

/// A companion slot's size, as the resolver sees the app's slots.
struct CompanionSlotSize: Sendable, Hashable {
    var width: Int
    var height: Int

    /// The slots of `container` (none without a container: nothing can show a companion).
    @MainActor
    static func sizes(of container: AdDisplayContainer?) -> [CompanionSlotSize] {
        (container?.companionSlots ?? []).map { CompanionSlotSize(width: $0.width, height: $0.height) }
    }
}

extension InLine {
    /// Why the ad's `<CompanionAds required="all|any">` (VAST 4.3 §3.14)
    /// cannot be met by slots of `slots` sizes, or nil when it can (or
    /// nothing is required; an unknown rule requires nothing).
    ///
    /// A slot shows the first of the ad's companions of its size, as the
    /// manager fills it: "all" needs every companion of the element shown,
    /// "any" one of them.
    func unmetCompanionRequirement(slots: [CompanionSlotSize]) -> String? {
        let groups = creatives.compactMap(\.companionAds)
        let rules = groups.map { $0.required?.rawValue.trimmingWhitespace.lowercased() }
        guard rules.contains(where: { $0 == "all" || $0 == "any" }) else { return nil }
        // (group, index) of every companion that has something to show, in the manager's order.
        let showable = groups.enumerated().flatMap { group, ads in
            ads.companions.indices.filter { !ads.companions[$0].resources.isEmpty }.map { (group, $0) }
        }
        var shown: Set<[Int]> = []
        for slot in slots {
            if let first = showable.first(where: { group, index in
                let companion = groups[group].companions[index]
                return companion.width == slot.width && companion.height == slot.height
            }) {
                shown.insert([first.0, first.1])
            }
        }
        for (group, rule) in rules.enumerated() where rule == "all" || rule == "any" {
            let companions = groups[group].companions
            let shownHere = companions.indices.filter { shown.contains([group, $0]) }
            let sizes = companions.indices.filter { !shown.contains([group, $0]) }.map { size(companions[$0]) }
            if rule == "all", shownHere.count < companions.count {
                return "requires all its companions (CompanionAds required=\"all\"), and no slot shows "
                    + sizes.joined(separator: ", ")
            }
            if rule == "any", !companions.isEmpty, shownHere.isEmpty {
                return "requires one of its companions (CompanionAds required=\"any\"), and no slot shows "
                    + sizes.joined(separator: ", ")
            }
        }
        return nil
    }

    private func size(_ companion: Companion) -> String {
        "\(companion.width.map(String.init) ?? "?")×\(companion.height.map(String.init) ?? "?")"
    }
}
