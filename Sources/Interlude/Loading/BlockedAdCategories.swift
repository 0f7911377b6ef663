import Foundation
import InterludeVAST

/// The categories a wrapper chain blocks (VAST 4.1 `<BlockedAdCategories>`):
/// the inline ad it leads to must not be in one of them (VAST error 205),
/// and the chain's later ad requests say which they are
/// (`[BLOCKEDADCATEGORIES]`).
struct BlockedAdCategories: Sendable, Hashable {
    private(set) var blocked: [AdCategory] = []

    /// Every category blocked by some wrapper of `chain`, first mention first.
    init(chain: [WrapperHop]) {
        var seen: Set<String> = []
        for hop in chain {
            for element in hop.wrapper.blockedAdCategories {
                // Real tags write one code per element or a comma-separated list.
                for code in Self.codes(element.value) where seen.insert(Self.key(code, element.authority)).inserted {
                    blocked.append(AdCategory(authority: element.authority, value: code))
                }
            }
        }
    }

    var isEmpty: Bool { blocked.isEmpty }

    /// The `[BLOCKEDADCATEGORIES]` value: the codes, in the order the chain named them.
    var macroValue: VASTMacroValue { .list(blocked.map(\.value)) }

    /// The first of `categories` the chain blocks, as "code (blocked as …)".
    ///
    /// Codes compare without regard to case. An IAB tier-1 code blocks its
    /// subcategories (`IAB8` blocks `IAB8-5`), as exchanges read OpenRTB
    /// `bcat`. Authorities must agree when both sides name one; the scheme and
    /// a trailing slash do not count (`http://` and `https://` spellings of
    /// the IAB's authority are both in use).
    func violation(in categories: [AdCategory]) -> String? {
        for category in categories {
            for code in Self.codes(category.value) {
                for rule in blocked where Self.blocks(rule, code: code, authority: category.authority) {
                    return rule.value.caseInsensitiveCompare(code) == .orderedSame
                        ? code : "\(code) (blocked as \(rule.value))"
                }
            }
        }
        return nil
    }

    private static func blocks(_ rule: AdCategory, code: String, authority: String?) -> Bool {
        if let ruleAuthority = rule.authority, let authority,
            normalized(ruleAuthority) != normalized(authority)
        {
            return false
        }
        let ruleCode = rule.value.lowercased()
        let code = code.lowercased()
        return code == ruleCode || code.hasPrefix(ruleCode + "-")
    }

    private static func codes(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    private static func key(_ code: String, _ authority: String?) -> String {
        "\(authority.map(normalized) ?? "")|\(code.lowercased())"
    }

    private static func normalized(_ authority: String) -> String {
        var text = authority.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let scheme = text.range(of: "://") { text = String(text[scheme.upperBound...]) }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
