import Foundation
import Testing

@testable import Interlude

@Suite struct StringTrimmingTests {
    @Test(arguments: [
        "http://a.test/x", " http://a.test/x", "http://a.test/x\n", "\t\r\n http://a.test/x \n",
        "\u{00A0}http://a.test/x",
        "http://a.test/x\u{2028}", "", "   ", "é", " é ", "\u{00A0}",
    ])
    func trimsExactlyAsFoundationDoes(text: String) {
        #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
