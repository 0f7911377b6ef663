import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Live and VOD stream registration over real HTTP: bodies, tokens, keys,
/// and everything refused before anything is stored.
@Suite struct PodServingRegistrationTests {
    private typealias Test = PodServingTest

    @Test func liveFormRegistrationAnswersGooglesFields() throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Test.post(
            Test.livePath, port: server.port, body: "cust_params=section%3Dsports%26page%3Dgolf&ppid=viewer-1")
        #expect(response.status == 201)
        #expect(response.headers["Content-Type"] == "application/json")
        let json = try Test.json(response)
        let id = try #require(json["stream_id"] as? String)
        #expect(PodStream.isValidID(id))
        let base = "http://127.0.0.1:\(server.port)"
        #expect(json["media_verification_url"] as? String == "\(base)/pods/v1/streams/\(id)/media/")
        #expect(json["metadata_url"] as? String == "\(base)/pods/v1/streams/\(id)/metadata")
        #expect(json["polling_frequency"] as? Int == 10)
        #expect(json["valid_for"] as? String == "8h0m0s")
        // 1 800 000 000 s + 8 h.
        #expect(json["valid_until"] as? String == "2027-01-15T16:00:00.000Z")
        let stored = try #require(try server.sessionStore.stream(id: id))
        #expect(stored.kind == .live)
        #expect(stored.customAssetKey == "interlude-live")
        #expect(stored.targeting == ["cust_params": "section=sports&page=golf", "ppid": "viewer-1"])
    }

    /// `fetch` with a string body sends `text/plain`, as Google's sample
    /// posts its form; some clients put the parameters in the URL's query.
    @Test func aTextPlainFormAndQueryParametersRegisterAsAForm() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let plain = try Test.post(
            Test.livePath, port: server.port, body: "ppid=viewer-2", contentType: "text/plain;charset=UTF-8")
        #expect(plain.status == 201, "\(plain.text)")
        let plainID = try #require(try Test.json(plain)["stream_id"] as? String)
        #expect(try server.sessionStore.stream(id: plainID)?.targeting == ["ppid": "viewer-2"])
        let queried = try Test.post(
            Test.livePath + "?cust_params=a%3D1&ppid=from-query", port: server.port, body: "ppid=from-body")
        #expect(queried.status == 201, "\(queried.text)")
        let queriedID = try #require(try Test.json(queried)["stream_id"] as? String)
        // The body wins where both name a parameter.
        #expect(
            try server.sessionStore.stream(id: queriedID)?.targeting == ["cust_params": "a=1", "ppid": "from-body"])
        let malformed = try Test.post(Test.livePath + "?cust_params=%zz", port: server.port, body: "")
        #expect(malformed.status == 400)
    }

    @Test func liveJSONRegistrationTakesTopLevelAndNestedParameters() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Test.post(
            Test.livePath, port: server.port,
            body: #"{"cust_params":"a=1","npa":true,"vpos":2,"skip":null,"targeting_parameters":{"url":"http://x"}}"#,
            contentType: "application/json; charset=utf-8")
        #expect(response.status == 201, "\(response.text)")
        let id = try #require(try Test.json(response)["stream_id"] as? String)
        #expect(
            try server.sessionStore.stream(id: id)?.targeting == [
                "cust_params": "a=1", "npa": "true", "vpos": "2", "url": "http://x",
            ])
    }

    @Test func vodRegistrationTakesTargetingParameters() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Test.post(
            Test.vodPath, port: server.port, body: #"{"targeting_parameters":{"url":"http://example.com"}}"#,
            contentType: "application/json")
        #expect(response.status == 201)
        let id = try #require(try Test.json(response)["stream_id"] as? String)
        let stream = try #require(try server.sessionStore.stream(id: id))
        #expect(stream.kind == .vod)
        #expect(stream.customAssetKey == nil)
        #expect(stream.targeting == ["url": "http://example.com"])
    }

    private func securedToken(
        _ fields: [String: String], key: String = PodServingTest.authKeyHex
    ) -> String {
        PodAuthToken.sign(fields, key: Hex.decode(key)!)
    }

    @Test func securedNetworkTakesAValidTokenAndKeyInTheBodyOrHeader() throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let token = securedToken(
            ["custom_asset_key": "interlude-live", "network_code": "secured", "exp": "1800000600"])
        let path = "/ssai/pods/api/v1/network/secured/custom_asset/interlude-live/stream"
        let body = try Test.post(
            path, port: server.port,
            body: "api-key=k3y&auth-token=\(token.replacingOccurrences(of: "~", with: "%7E"))")
        #expect(body.status == 201, "\(body.text)")
        let header = try Test.post(
            path, port: server.port, body: "", headers: [("Authorization", "DCLKDAI key=\"k3y\", token=\"\(token)\"")])
        #expect(header.status == 201, "\(header.text)")
        let vodToken = securedToken(["network_code": "secured", "exp": "1800000600"])
        let vod = try Test.post(
            "/ondemand/pods/api/v1/network/secured/stream_registration", port: server.port,
            body: #"{"api-key":"k3y","auth-token":"\#(vodToken)","targeting_parameters":{}}"#,
            contentType: "application/json")
        #expect(vod.status == 201, "\(vod.text)")
    }

    @Test func missingBadOrExpiredTokensAndKeysAre401AndStoreNothing() throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let path = "/ssai/pods/api/v1/network/secured/custom_asset/interlude-live/stream"
        let fields = ["custom_asset_key": "interlude-live", "network_code": "secured"]
        let cases: [(String, String)] = [
            ("no token", "api-key=k3y"),
            ("no key", "auth-token=" + securedToken(fields.merging(["exp": "1800000600"]) { $1 })),
            ("wrong key", "api-key=nope&auth-token=" + securedToken(fields.merging(["exp": "1800000600"]) { $1 })),
            ("expired", "api-key=k3y&auth-token=" + securedToken(fields.merging(["exp": "1799999999"]) { $1 })),
            (
                "other key",
                "api-key=k3y&auth-token="
                    + securedToken(
                        fields.merging(["exp": "1800000600"]) { $1 }, key: String(repeating: "1f", count: 16))
            ),
            (
                "other asset",
                "api-key=k3y&auth-token="
                    + securedToken(["custom_asset_key": "x", "network_code": "secured", "exp": "1800000600"])
            ),
            ("garbage", "api-key=k3y&auth-token=hello"),
        ]
        for (name, body) in cases {
            let response = try Test.post(path, port: server.port, body: body.replacingOccurrences(of: "~", with: "%7E"))
            #expect(response.status == 401, "\(name): \(response.text)")
            #expect((try Test.json(response)["error"] as? [String: Any])?["status"] as? Int == 401, "\(name)")
        }
        let header = try Test.post(path, port: server.port, body: "", headers: [("Authorization", "Bearer x")])
        #expect(header.status == 401)
        #expect(try Test.storedStreams(server) == 0)
    }

    @Test func unknownNetworksAndAssetsAre404AndMalformedBodies4xx() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let cases: [(String, String, String?, Int)] = [
            ("/ssai/pods/api/v1/network/nobody/custom_asset/interlude-live/stream", "", nil, 404),
            ("/ssai/pods/api/v1/network/interlude/custom_asset/nothing-here/stream", "", nil, 404),
            ("/ssai/pods/api/v1/network/%2E%2E/custom_asset/interlude-live/stream", "", nil, 404),
            ("/ssai/pods/api/v1/network/interlude/custom_asset/..%2F..%2Fetc/stream", "", nil, 404),
            ("/ondemand/pods/api/v1/network/nobody/stream_registration", "{}", "application/json", 404),
            (Test.livePath, "{not json", "application/json", 400),
            (Test.livePath, "[1,2]", "application/json", 400),
            (Test.livePath, #"{"a":[1]}"#, "application/json", 400),
            (Test.livePath, #"{"targeting_parameters":"x"}"#, "application/json", 400),
            (Test.livePath, #"{"targeting_parameters":{"a":{"b":1}}}"#, "application/json", 400),
            (Test.livePath, "cust_params=%zz", nil, 400),
            (Test.livePath, "a=1&a=2", nil, 400),
            (Test.livePath, "a=\u{1}", nil, 400),
            (Test.livePath, "=x", nil, 400),
            (Test.livePath, "<xml/>", "text/xml", 415),
            (Test.livePath, "x=" + String(repeating: "y", count: 70 * 1024), nil, 413),
            (Test.livePath, "x=" + String(repeating: "y", count: 9 * 1024), nil, 400),
            (
                Test.livePath, (0...200).map { "p\($0)=v" }.joined(separator: "&"),
                "application/x-www-form-urlencoded", 400
            ),
        ]
        for (path, body, type, status) in cases {
            let response = try Test.post(
                path, port: port, body: body, contentType: type ?? "application/x-www-form-urlencoded")
            #expect(response.status == status, "\(path) \(body.prefix(40)): \(response.text.prefix(200))")
            #expect(response.headers["Content-Type"] == "application/json", "\(path)")
        }
        let get = try Loopback.get(Test.livePath, port: port)
        #expect(get.status == 405)
        #expect(try Test.storedStreams(server) == 0)
        #expect(try Loopback.get("/health", port: port).status == 200)
    }
}
