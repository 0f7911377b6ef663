/// Keeps other web sites out of the console: its APIs fetch URLs for the
/// caller and show every session, so a page elsewhere must neither drive
/// them from a visitor's browser (cross-site requests) nor read them by
/// pointing a DNS name of its own at this machine (DNS rebinding).
enum ConsoleGuard {
    /// Every console request: the `Host` it was sent to must be an IP
    /// literal or a `localhost` name, which a rebinding attacker cannot make
    /// its page's origin.
    static func checkHost(_ request: HTTPRequest) throws(HTTPError) {
        guard let host = request.headers["Host"].map(hostPart), isTrusted(host: host) else {
            throw HTTPError(
                status: 403,
                message:
                    "the console answers requests addressed to an IP address or localhost, not '\(request.headers["Host"]?.prefix(100) ?? "")'"
            )
        }
    }

    /// Console API calls: additionally, a browser's `Origin` (when sent) must
    /// be this server as the request addressed it, and `Sec-Fetch-Site`
    /// (when sent) same-origin. Tools that send neither (curl) pass.
    static func checkAPI(_ request: HTTPRequest) throws(HTTPError) {
        try checkHost(request)
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin", site != "none" {
            throw HTTPError(
                status: 403,
                message: "console APIs answer the console's own pages only (Sec-Fetch-Site: \(site.prefix(40)))")
        }
        if let origin = request.headers["Origin"], let host = request.headers["Host"],
            origin.lowercased() != "http://\(host.lowercased())"
        {
            throw HTTPError(
                status: 403, message: "console APIs answer the console's own pages only (Origin \(origin.prefix(100)))")
        }
    }

    /// `host` of `host:port`, `[v6]` of `[v6]:port`.
    static func hostPart(_ header: String) -> String {
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return header }
            return String(header[...close])
        }
        guard let colon = header.lastIndex(of: ":") else { return header }
        return String(header[..<colon])
    }

    static func isTrusted(host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered.hasSuffix(".localhost") { return true }
        if lowered.hasPrefix("["), lowered.hasSuffix("]") {
            return SocketAddress(host: lowered, port: 0) != nil
        }
        // Dotted IPv4 only: names, however numeric they look to a resolver, are names.
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                    && Int(part).map { $0 <= 255 } == true
            }
    }
}
