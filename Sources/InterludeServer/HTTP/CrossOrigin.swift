/// CORS for browser players, which fetch tags and send beacons cross-origin.
///
/// A request with an `Origin` gets that origin back with
/// `Access-Control-Allow-Credentials: true`, because players that fetch VAST
/// with credentials (`withCredentials`) are refused a wildcard; others get
/// `*`. `OPTIONS` preflights are answered here with 204.
public enum CrossOrigin {
    /// Answers a preflight, or runs `respond` and adds the CORS headers.
    public static func apply(to request: HTTPRequest, _ respond: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        if request.method == "OPTIONS", request.headers["Access-Control-Request-Method"] != nil {
            response = HTTPResponse(status: 204)
            response.headers.set("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS")
            if let headers = request.headers["Access-Control-Request-Headers"], isToken(headers) {
                response.headers.set("Access-Control-Allow-Headers", headers)
            }
            response.headers.set("Access-Control-Max-Age", "600")
        } else {
            response = respond(request)
        }
        if let origin = request.headers["Origin"], isToken(origin) {
            response.headers.set("Access-Control-Allow-Origin", origin)
            response.headers.set("Access-Control-Allow-Credentials", "true")
            response.headers.add("Vary", "Origin")
        } else {
            response.headers.set("Access-Control-Allow-Origin", "*")
        }
        return response
    }

    /// Only printable ASCII without CR/LF goes back into a header.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 512 && text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
