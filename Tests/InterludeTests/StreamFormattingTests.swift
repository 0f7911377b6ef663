import Foundation
import Testing

@testable import Interlude

/// The hand-written formatters on the stream's hot path, against what the
/// Foundation calls they replaced give.
@Suite("Stream formatting")
struct StreamFormattingTests {
    @Test func placeholdersFillByNumberAndInTurn() {
        #expect(AdUIStrings.format("Ad %1$@ of %2$@ (%3$@s)", ["1", "3", "12"]) == "Ad 1 of 3 (12s)")
        #expect(AdUIStrings.format("Anúncio %1$@ de %2$@ (%3$@s)", ["2", "3", "5"]) == "Anúncio 2 de 3 (5s)")
        #expect(AdUIStrings.format("Ad (%@s)", ["7"]) == "Ad (7s)")
        #expect(AdUIStrings.format("%@ then %@", ["a", "b"]) == "a then b")
        // Repeated numbered placeholders all fill; ones with no argument stay.
        #expect(AdUIStrings.format("%1$@/%1$@ %2$@ %3$@", ["x", "y"]) == "x/x y %3$@")
        #expect(AdUIStrings.format("%@ %@", ["only"]) == "only %@")
        #expect(AdUIStrings.format("100% sure %", ["x"]) == "100% sure %")
        #expect(AdUIStrings.format("", ["x"]) == "")
        // Arguments are inserted as written, never read as placeholders.
        #expect(AdUIStrings.format("%@ %@", ["%@", "b"]) == "%@ b")
    }

    @Test func percentEncodingLeavesOnlyUnreservedCharacters() {
        #expect(StreamRegistrationRequest.percentEncoded("google_AbC-1.2~x") == "google_AbC-1.2~x")
        #expect(StreamRegistrationRequest.percentEncoded("a b/c?d=e&f") == "a%20b%2Fc%3Fd%3De%26f")
        #expect(StreamRegistrationRequest.percentEncoded("é") == "%C3%A9")
        #expect(StreamRegistrationRequest.percentEncoded("") == "")
        let text = "section=sports&page=golf,tennis ü"
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(
            StreamRegistrationRequest.percentEncoded(text)
                == text.addingPercentEncoding(withAllowedCharacters: unreserved))
    }

    @Test func cuepointSecondsAreWrittenShortest() {
        #expect(Cuepoint.number(0) == "0")
        #expect(Cuepoint.number(80) == "80")
        #expect(Cuepoint.number(12.5) == "12.5")
        #expect(Cuepoint.number(12.25) == "12.25")
        #expect(Cuepoint.number(1.005) == "1.005")
        #expect(Cuepoint.number(9.9999) == "10")
        #expect(Cuepoint.number(0.05) == "0.05")
        #expect(Cuepoint.number(-1.5) == "-1.5")
        #expect(Cuepoint.number(.nan) == "0")
    }
}
