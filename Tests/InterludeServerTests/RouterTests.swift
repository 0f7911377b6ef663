import Testing

@testable import InterludeServer

@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.add("GET", "/track/:session/:ad/:event") { _, parameters in
            .text("\(parameters["session"]!)|\(parameters["ad"]!)|\(parameters["event"]!)", contentType: "text/plain")
        }
        router.add("GET", "/media/*file") { _, parameters in
            .text(parameters.rest.joined(separator: "|"), contentType: "text/plain")
        }
        router.add("POST", "/only-post") { _, _ in .noContent }
        router.add("GET", "/fails") { _, _ throws(HTTPError) in throw HTTPError(status: 418, message: "teapot") }
        return router
    }

    private func body(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func pathParametersAreCapturedAndDecoded() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/track/s%201/ad.2/start?x=1"))
        #expect(response.status == 200)
        #expect(body(response) == "s 1|ad.2|start")
    }

    @Test func restPatternCapturesRemainingSegmentsSeparately() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/media/a/b%2Fc"))
        #expect(body(response) == "a|b/c")
    }

    @Test func unknownPathAnswers404WithJSONError() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/nowhere"))
        #expect(response.status == 404)
        #expect(body(response).contains(#""status":404"#))
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func wrongMethodAnswers405WithAllowHeader() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/only-post"))
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "POST")
    }

    @Test func headUsesTheGetRoute() throws {
        let response = router().respond(to: try HTTPRequest(method: "HEAD", target: "/track/a/b/c"))
        #expect(response.status == 200)
    }

    @Test func thrownHTTPErrorBecomesJSONAnswer() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/fails"))
        #expect(response.status == 418)
        #expect(body(response) == #"{"error":{"message":"teapot","status":418}}"#)
    }

    @Test func malformedPercentEncodingInPathIs400() throws {
        let response = router().respond(to: try HTTPRequest(method: "GET", target: "/track/%zz/a/b"))
        #expect(response.status == 400)
    }
}

@Suite struct HTTPRequestTests {
    @Test func queryIsSplitAndDecodedInOrder() throws {
        let request = try HTTPRequest(method: "GET", target: "/vast?pod=3&name=a+b&x=%5BERRORCODE%5D&flag")
        #expect(request.queryItems.map(\.name) == ["pod", "name", "x", "flag"])
        #expect(request.query("name") == "a b")
        #expect(request.query("x") == "[ERRORCODE]")
        #expect(request.query("flag") == "")
        #expect(request.rawQuery == "pod=3&name=a+b&x=%5BERRORCODE%5D&flag")
    }

    @Test func unfilledMacrosInQueryAreKeptAsSent() throws {
        let request = try HTTPRequest(method: "GET", target: "/t?code=[ERRORCODE]&bad=%G1")
        #expect(request.query("code") == "[ERRORCODE]")
        #expect(request.query("bad") == "%G1")
    }

    @Test func absoluteFormTargetIsReducedToPath() throws {
        let request = try HTTPRequest(method: "GET", target: "http://example.com:8080/vast?pod=2")
        #expect(request.rawPath == "/vast")
        #expect(request.query("pod") == "2")
    }

    @Test func delimitersAreFoundAsBytesWhateverTheTextAround() throws {
        let request = try HTTPRequest(
            method: "GET", target: "https://h/caf\u{E9}/\u{1F3AC}?\u{301}a=\u{E9}&&=v&b=&c=1=2#frag?x=y")
        #expect(request.rawPath == "/caf\u{E9}/\u{1F3AC}")
        #expect(request.pathSegments == ["caf\u{E9}", "\u{1F3AC}"])
        #expect(request.rawQuery == "\u{301}a=\u{E9}&&=v&b=&c=1=2")
        #expect(request.queryItems.map(\.name) == ["\u{301}a", "", "b", "c"])
        #expect(request.queryItems.map(\.value) == ["\u{E9}", "v", "", "1=2"])
        #expect(try HTTPRequest(method: "GET", target: "http://").rawPath == "/")
        #expect(try HTTPRequest(method: "GET", target: "//a//b/").pathSegments == ["a", "b"])
        #expect(try HTTPRequest(method: "GET", target: "/").pathSegments == [])
    }

    @Test func targetWithoutLeadingSlashIsRefused() {
        #expect(throws: HTTPError.self) { try HTTPRequest(method: "GET", target: "vast") }
    }

    @Test func headersCompareCaseInsensitively() {
        let headers = HTTPHeaders([("Content-Type", "a"), ("X-Two", "b")])
        #expect(headers["content-type"] == "a")
        #expect(headers["x-two"] == "b")
    }
}
