import Foundation
import InterludeVAST
import Testing

@Suite("Macros")
struct MacroTests {
    /// 2016-01-17T08:15:07.127Z, the instant VAST 4.x uses in its example.
    static let instant = Date(timeIntervalSince1970: 1_453_018_507.127)
    let filler = VASTMacroFiller(
        now: { MacroTests.instant }, timeZone: TimeZone(secondsFromGMT: -5 * 3600)!, cacheBuster: { "12345678" })

    @Test func replacesWholeTokens() {
        #expect(filler.fill("http://t/e?c=[ERRORCODE]", with: [.errorCode: "303"]) == "http://t/e?c=303")
        #expect(filler.fill("[ERRORCODE][ERRORCODE]", with: [.errorCode: "1"]) == "11")
    }

    @Test func percentEncodesValues() {
        #expect(
            filler.fill("u=[ASSETURI]", with: [.assetURI: "http://m.test/a b.mp4?x=1&y=é"])
                == "u=http%3A%2F%2Fm.test%2Fa%20b.mp4%3Fx%3D1%26y%3D%C3%A9")
    }

    @Test func listValuesAreJoinedByUnencodedCommas() {
        #expect(
            filler.fill("v=[VASTVERSIONS]", with: [.vastVersions: .list(["2", "3", "4.1 beta"])]) == "v=2,3,4.1%20beta")
        #expect(
            filler.fill("c=[BLOCKEDADCATEGORIES]", with: [.blockedAdCategories: .list(["a,b", "c"])]) == "c=a%2Cb,c")
    }

    @Test func unknownAndWithheldValues() {
        #expect(filler.fill("[IFA]|[LATLONG]", with: [.ifa: .withheld, .latLong: .unknown]) == "-2|-1")
    }

    @Test func unsuppliedAndUnknownMacrosAreLeftInPlace() {
        let template = "http://t/?a=[ADPLAYHEAD]&b=[random]&c=[NOT_A_MACRO]&d=[]&e=[ERRORCODE"
        #expect(filler.fill(template) == template)
    }

    @Test func timestampIsISO8601WithMillisecondsAndZone() {
        #expect(
            VASTMacroFiller.iso8601(Self.instant, in: TimeZone(secondsFromGMT: -5 * 3600)!)
                == "2016-01-17T03:15:07.127-05:00")
        #expect(
            VASTMacroFiller.iso8601(Self.instant, in: TimeZone(secondsFromGMT: 0)!) == "2016-01-17T08:15:07.127+00:00")
        #expect(filler.fill("t=[TIMESTAMP]") == "t=2016-01-17T03%3A15%3A07.127-05%3A00")
    }

    @Test func cacheBustingIsEightDigits() {
        #expect(filler.fill("cb=[CACHEBUSTING]") == "cb=12345678")
        let real = VASTMacroFiller()
        for _ in 0..<100 {
            let value = real.fill("[CACHEBUSTING]")
            #expect(value.count == 8 && value.allSatisfy(\.isNumber), "\(value)")
        }
    }

    @Test func automaticValuesCanBeOverridden() {
        #expect(filler.fill("[CACHEBUSTING]", with: [.cacheBusting: "1"]) == "1")
    }

    @Test func filledValuesAreNotScannedAgain() {
        #expect(filler.fill("[ASSETURI]", with: [.assetURI: "[ERRORCODE]"]) == "%5BERRORCODE%5D")
    }

    @Test func playheadFormat() {
        #expect(filler.fill("[ADPLAYHEAD]", with: [.adPlayhead: .playhead(seconds: 7.5)]) == "00%3A00%3A07.500")
        #expect(
            filler.fill("[CONTENTPLAYHEAD]", with: [.contentPlayhead: .playhead(seconds: 3600)]) == "01%3A00%3A00.000")
    }

    @Test func everyMacroInTheTableCanBeFilled() {
        #expect(VASTMacro.all.count == 46)
        for macro in VASTMacro.all {
            #expect(filler.fill("x[\(macro.rawValue)]y", with: [macro: "v"]) == "xvy", "\(macro)")
        }
    }
}

@Suite("Error codes")
struct ErrorCodeTests {
    @Test func tableHoldsEveryVASTAndVMAPCode() {
        let numbers = VASTErrorCode.allKnown.map(\.rawValue)
        for code in [
            100, 101, 102, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 400, 401, 402, 403, 405,
            406, 407, 408, 409, 410, 411, 500, 501, 502, 503, 600, 601, 602, 603, 604, 900, 901, 902,
        ] + Array(1000...1008) {
            #expect(numbers.contains(code), "\(code)")
        }
        #expect(numbers == numbers.sorted())
        #expect(Set(numbers).count == numbers.count)
        #expect(VASTErrorCode.allKnown.allSatisfy { !$0.summary.hasPrefix("error ") })
    }

    @Test func errorDescriptionNamesCodeAndPlace() {
        let error = VASTError(code: .xmlParsingError, message: "bad", line: 3, column: 7)
        #expect(error.description == "VAST error 100: bad (line 3, column 7)")
        #expect(VASTErrorCode(999).summary == "error 999")
    }
}
