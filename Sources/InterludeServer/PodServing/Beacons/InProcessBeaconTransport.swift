/// The default transport: a beacon addressed to this server is answered by
/// this server's own router, in-process — the collector's `/track` route,
/// its parsing, store and idempotency exactly as over HTTP, without a
/// loopback TCP round trip per beacon (at thousands of verifications a
/// second those round trips were half the server's work). Every other URL
/// goes through `next`.
struct InProcessBeaconTransport: BeaconTransport {
    /// `http://host:port` this server links itself as.
    let baseURL: String
    let router: Router
    let next: any BeaconTransport

    func answersInProcess(url: String) -> Bool { url.hasPrefix(baseURL + "/") }

    func send(url: String, idempotencyKey: String) throws(BeaconTransportError) -> Int {
        guard answersInProcess(url: url) else { return try next.send(url: url, idempotencyKey: idempotencyKey) }
        let target = String(url.dropFirst(baseURL.count))
        let request: HTTPRequest
        do {
            request = try HTTPRequest(
                method: "GET", target: target,
                headers: HTTPHeaders([
                    ("Host", String(baseURL.dropFirst("http://".count))), ("Idempotency-Key", idempotencyKey),
                ]))
        } catch {
            throw BeaconTransportError("not a request target: \(target.prefix(200))")
        }
        return router.respond(to: request).status
    }
}
