import InterludeVAST

/// `/faults/…`: answers that go wrong on purpose, for testing players.
struct FaultRoutes: Sendable {
    let decisioner: AdDecisioner
    let linksFor: @Sendable (HTTPRequest) throws(HTTPError) -> ServerLinks

    func register(in router: inout Router) {
        router.add("GET", "/faults/delay/:ms") { request, parameters throws(HTTPError) in
            let milliseconds = try Self.number(parameters["ms"], name: "delay", range: 0...60_000)
            var response = try vast(request)
            response.delivery = .delayed(milliseconds: milliseconds)
            return response
        }
        // Any path under it and POST too, so an API base URL (a pod-serving
        // `serverURL`) can point here and every call under it fails alike.
        for method in ["GET", "POST"] {
            router.add(method, "/faults/status/:code/*under") { _, parameters throws(HTTPError) in
                let status = try Self.number(parameters["code"], name: "status", range: 200...599)
                if status == 204 || status == 304 { return HTTPResponse(status: status) }
                return HTTPError(status: status, message: "fault route: status \(status) as asked").response
            }
        }
        router.add("GET", "/faults/truncated") { request, _ throws(HTTPError) in
            var response = try vast(request)
            response.delivery = .truncated(afterBytes: response.bodyLength / 2)
            return response
        }
        router.add("GET", "/faults/reset") { _, _ in HTTPResponse(delivery: .reset) }
        router.add("GET", "/faults/malformed") { _, _ in .xml(Self.malformedVAST) }
        router.add("GET", "/faults/empty") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            return .xml(VASTWriter().write(VASTDocument(version: options.version)))
        }
        router.add("GET", "/faults/no-ad") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            let links = try linksFor(request)
            return .xml(VASTWriter().write(noAd(options: options, links: links)))
        }
        router.add("GET", "/faults/wrapper-loop") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            let links = try linksFor(request)
            let ad = decisioner.wrapperAd(
                id: "wrapper-loop", tagURI: links.url("/faults/wrapper-loop", options.queryParameters),
                options: options, links: links)
            return .xml(VASTWriter().write(VASTDocument(version: options.version, ads: [ad])))
        }
        router.add("GET", "/faults/drip") { request, _ throws(HTTPError) in
            let chunk = try Self.number(request.query("chunk") ?? "64", name: "chunk", range: 1...65_536)
            let interval = try Self.number(request.query("interval_ms") ?? "50", name: "interval_ms", range: 0...5_000)
            var response = try vast(request)
            response.delivery = .dripped(chunkSize: chunk, intervalMilliseconds: interval)
            return response
        }
        // Ad servers often answer a tag with a 302 to their decision endpoint;
        // a player must follow a few and stop at its own limit.
        router.add("GET", "/faults/redirect/:count") { request, parameters throws(HTTPError) in
            let count = try Self.number(parameters["count"], name: "redirect count", range: 0...50)
            let options = try AdRequestOptions(query: request.query)
            let links = try linksFor(request)
            let next =
                count == 0
                ? links.url("/vast", options.queryParameters)
                : links.url("/faults/redirect/\(count - 1)", options.queryParameters)
            return Self.redirect(to: next)
        }
        router.add("GET", "/faults/redirect-scheme") { request, _ in
            Self.redirect(to: request.query("to") ?? "file:///etc/passwd")
        }
        router.add("GET", "/faults/missing-media") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            let links = try linksFor(request)
            return .xml(VASTWriter().write(try missingMedia(options: options, links: links)))
        }
    }

    private static func redirect(to location: String) -> HTTPResponse {
        HTTPResponse(
            status: 302, headers: HTTPHeaders([("Location", location), ("Content-Type", "text/plain")]),
            body: .bytes(Array("redirecting to \(location)\n".utf8)))
    }

    private func vast(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let document = try decisioner.vast(AdRequestOptions(query: request.query), links: linksFor(request))
        return .xml(VASTWriter().write(document))
    }

    /// A VAST with no ad and root Error URLs (players fire them with 303).
    func noAd(options: AdRequestOptions, links: ServerLinks) -> VASTDocument {
        VASTDocument(version: options.version, errors: [links.beacon(ad: "no-ad", event: "error")])
    }

    /// A normal ad whose media files all answer 404 (players report 401).
    func missingMedia(options: AdRequestOptions, links: ServerLinks) throws(HTTPError) -> VASTDocument {
        var document = try decisioner.vast(options, links: links)
        for adIndex in document.ads.indices {
            guard case .inLine(var inLine) = document.ads[adIndex].content else { continue }
            for creativeIndex in inLine.creatives.indices {
                guard case .linear(var linear) = inLine.creatives[creativeIndex].kind else { continue }
                for fileIndex in linear.mediaFiles.indices {
                    let file = linear.mediaFiles[fileIndex]
                    linear.mediaFiles[fileIndex].url = links.media("missing-\(file.id ?? "file")-\(fileIndex).mp4")
                }
                inLine.creatives[creativeIndex].kind = .linear(linear)
            }
            document.ads[adIndex].content = .inLine(inLine)
        }
        return document
    }

    /// Not well-formed: a closing tag that does not match its opening tag, and no end.
    static let malformedVAST = """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="4.2"><Ad id="malformed"><InLine><AdSystem>Interlude</AdSystem>
        <AdTitle>Malformed on purpose</Title><Impression><![CDATA[http://127.0.0.1/never]]></Impression>
        <Creatives><Creative><Linear><Duration>00:00:10
        """

    private static func number(_ text: String?, name: String, range: ClosedRange<Int>) throws(HTTPError) -> Int {
        guard let text, let value = Int(text), range.contains(value) else {
            throw .badRequest(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text ?? "")'")
        }
        return value
    }
}
