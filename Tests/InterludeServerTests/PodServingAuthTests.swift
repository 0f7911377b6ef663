import Foundation
import Testing

@testable import InterludeServer

/// SHA-256 against FIPS 180-4's examples, HMAC-SHA256 against RFC 4231, and
/// the DAI auth-token format built on them.
@Suite struct PodServingAuthTests {
    private func hex(_ text: String) -> [UInt8] { Hex.decode(text)! }

    @Test func sha256MatchesTheFIPSExamples() {
        #expect(
            Hex.encode(SHA256.hash("abc"))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(SHA256.hash(""))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Hex.encode(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Hex.encode(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// RFC 4231 §4.2–4.8 (case 5 compares the first 128 bits, as the RFC does).
    @Test(arguments: [
        (
            String(repeating: "0b", count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Hex.encode(Array("Jefe".utf8)), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            String(repeating: "aa", count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "0102030405060708090a0b0c0d0e0f10111213141516171819", [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            String(repeating: "0c", count: 20), Array("Test With Truncation".utf8),
            "a3b6167473100ee06e0c796c2955552b"
        ),
        (
            String(repeating: "aa", count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            String(repeating: "aa", count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs"
                    + " to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func hmacSHA256MatchesRFC4231(key: String, data: [UInt8], expected: String) {
        let code = Hex.encode(HMACSHA256.authenticationCode(for: data, key: hex(key)))
        #expect(code.hasPrefix(expected))
    }

    @Test func signedTokenHasSortedPairsThenHMAC() throws {
        let key = hex(String(repeating: "0b", count: 20))
        let token = PodAuthToken.sign(["network_code": "n", "exp": "1900000000", "custom_asset_key": "c"], key: key)
        let message = "custom_asset_key=c~exp=1900000000~network_code=n"
        #expect(
            token == message + "~hmac=" + Hex.encode(HMACSHA256.authenticationCode(for: message.utf8, key: key)))
        let fields = try PodAuthToken.verify(
            token, key: key, now: Date(timeIntervalSince1970: 1_800_000_000),
            expected: ["custom_asset_key": "c", "network_code": "n"])
        #expect(fields["exp"] == "1900000000")
    }

    @Test(arguments: [
        ("custom_asset_key=c~exp=1900000000~hmac=00", "hmac must be 64 hex"),
        ("custom_asset_key=c~exp=1900000000", "no '~hmac='"),
        ("exp=1900000000~custom_asset_key=c", "sorted"),
        ("exp=1700000000", "expired"),
        ("custom_asset_key=c", "needs exp"),
        ("exp=1900000000~st=1850000000", "not valid before"),
        ("custom_asset_key=other~exp=1900000000", "does not match"),
        ("exp=1900000000", "has no custom_asset_key"),
        ("garbage~exp=1900000000", "not key=value"),
    ])
    func badTokensAreRefusedWithAReason(message: String, reason: String) {
        let key = hex(String(repeating: "0b", count: 20))
        var token = message
        if !message.contains("~hmac=") && reason != "no '~hmac='" {
            token = message + "~hmac=" + Hex.encode(HMACSHA256.authenticationCode(for: message.utf8, key: key))
        }
        #expect {
            try PodAuthToken.verify(
                token, key: key, now: Date(timeIntervalSince1970: 1_800_000_000), expected: ["custom_asset_key": "c"])
        } throws: { error in
            (error as? PodAuthTokenError)?.message.contains(reason) == true
        }
    }

    @Test func tokenSignedWithAnotherKeyIsRefused() {
        let token = PodAuthToken.sign(["exp": "1900000000"], key: Array("other key bytes!".utf8))
        #expect(throws: PodAuthTokenError.self) {
            try PodAuthToken.verify(
                token, key: hex(String(repeating: "0b", count: 20)), now: Date(timeIntervalSince1970: 1_800_000_000),
                expected: [:])
        }
    }

    @Test func goDurationsAreWrittenAsValidForIs() {
        #expect(PodTimeFormat.goDuration(8 * 3600) == "8h0m0s")
        #expect(PodTimeFormat.goDuration(1800) == "30m0s")
        #expect(PodTimeFormat.goDuration(45) == "45s")
        #expect(PodTimeFormat.goDuration(3661.5) == "1h1m1.5s")
    }
}
