import Foundation

/// The words of the ad UI in one language: the custom UI's (as the IMA
/// guide builds it) and the built-in UI's (as IMA's own UI shows it).
/// English and Brazilian Portuguese are built in; apps add others with
/// ``register(_:for:)``.
public struct AdUIStrings: Sendable, Hashable {
    /// Custom UI: countdown for a standalone ad; `%@` is the remaining seconds. "Ad (%@s)".
    public var countdownSingle: String
    /// Custom UI: countdown in a pod; `%1$@` position, `%2$@` total, `%3$@` seconds. "Ad %1$@ of %2$@ (%3$@s)".
    public var countdownInPod: String
    /// Custom UI: the skip button while it counts down; `%@` is seconds. "Skip this ad in %@...".
    public var skipCountdown: String
    /// Custom UI: the skip button once skipping is allowed. "Skip ad".
    public var skipNow: String
    /// Custom UI: the click-through button. "Learn More".
    public var learnMore: String
    /// Built-in UI: the attribution label. "Ad".
    public var adLabel: String
    /// Built-in UI: the pod position after the label; `%1$@` position, `%2$@` total. "%1$@ of %2$@".
    public var adPosition: String
    /// Built-in UI: the skip button while it counts down; `%@` is whole seconds. "Skip in %@".
    public var builtInSkipCountdown: String
    /// Built-in UI: the skip button once skipping is allowed. "Skip Ad".
    public var builtInSkipNow: String
    /// Built-in UI: the click-through link. "Learn more".
    public var builtInLearnMore: String

    /// Strings for one language; the built-in UI's default to English.
    public init(
        countdownSingle: String, countdownInPod: String, skipCountdown: String, skipNow: String, learnMore: String,
        adLabel: String = "Ad", adPosition: String = "%1$@ of %2$@", builtInSkipCountdown: String = "Skip in %@",
        builtInSkipNow: String = "Skip Ad", builtInLearnMore: String = "Learn more"
    ) {
        self.countdownSingle = countdownSingle
        self.countdownInPod = countdownInPod
        self.skipCountdown = skipCountdown
        self.skipNow = skipNow
        self.learnMore = learnMore
        self.adLabel = adLabel
        self.adPosition = adPosition
        self.builtInSkipCountdown = builtInSkipCountdown
        self.builtInSkipNow = builtInSkipNow
        self.builtInLearnMore = builtInLearnMore
    }

    /// English: the custom UI worded as the IMA custom-UI guide builds it,
    /// the built-in UI as IMA's own UI words it.
    public static let english = AdUIStrings(
        countdownSingle: "Ad (%@s)", countdownInPod: "Ad %1$@ of %2$@ (%3$@s)", skipCountdown: "Skip this ad in %@...",
        skipNow: "Skip ad", learnMore: "Learn More")

    /// Brazilian Portuguese, worded as the guide's Portuguese edition names the elements.
    public static let brazilianPortuguese = AdUIStrings(
        countdownSingle: "Anúncio (%@s)", countdownInPod: "Anúncio %1$@ de %2$@ (%3$@s)",
        skipCountdown: "Pular este anúncio em %@...", skipNow: "Pular anúncio", learnMore: "Saiba mais",
        adLabel: "Anúncio", adPosition: "%1$@ de %2$@", builtInSkipCountdown: "Pular em %@",
        builtInSkipNow: "Pular anúncio", builtInLearnMore: "Saiba mais")

    private static let table = StringsTable()

    /// Adds or replaces the strings for a language tag (`de`, `es-MX`, …).
    public static func register(_ strings: AdUIStrings, for language: String) {
        table.set(strings, for: language.lowercased())
    }

    /// The strings for a BCP 47 tag: an exact match, then the language
    /// alone (`pt-PT` → `pt`), then English.
    public static func forLanguage(_ language: String) -> AdUIStrings {
        let tag = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = table.get(tag) { return exact }
        if let base = tag.split(separator: "-").first, let match = table.get(String(base)) { return match }
        return .english
    }

    /// Fills `%@`, `%1$@`… placeholders itself rather than through
    /// `String(format:)`, so every platform formats the same: `%N$@` is
    /// argument N, each `%@` the next argument in turn; a placeholder with
    /// no argument stays as written. One pass over the UTF-8 bytes (the
    /// placeholders are ASCII), without Foundation: a stream's countdown is
    /// formatted every second of every ad.
    static func format(_ template: String, _ arguments: [String]) -> String {
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var next = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 1 < bytes.count else {
                result.append(bytes[index])
                index += 1
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "@"), next < arguments.count {
                result.append(contentsOf: arguments[next].utf8)
                next += 1
                index += 2
                continue
            }
            let digit = bytes[index + 1]
            if digit >= UInt8(ascii: "1"), digit <= UInt8(ascii: "9"), index + 3 < bytes.count,
                bytes[index + 2] == UInt8(ascii: "$"), bytes[index + 3] == UInt8(ascii: "@"),
                Int(digit - UInt8(ascii: "0")) <= arguments.count
            {
                result.append(contentsOf: arguments[Int(digit - UInt8(ascii: "1"))].utf8)
                index += 4
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// The registered languages. Guarded by `lock`, so the unchecked conformance is sound.
private final class StringsTable: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: AdUIStrings] = [
        "en": .english, "pt-br": .brazilianPortuguese, "pt": .brazilianPortuguese,
    ]

    func get(_ tag: String) -> AdUIStrings? { lock.withLock { entries[tag] } }
    func set(_ strings: AdUIStrings, for tag: String) { lock.withLock { entries[tag] = strings } }
}
