import Foundation

/// The console's static files, compiled into the binary (SwiftPM's
/// `embedInCode` resources: no bundle to find at run time, so the console
/// works wherever the `interlude` binary is copied), with their content
/// types, strong ETags and the headers every console page carries.
enum ConsoleAssets {
    struct Asset: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var etag: String
    }

    /// By path under `/console/`.
    static let files: [String: Asset] = {
        let table: [(String, [UInt8], String)] = [
            ("index.html", PackageResources.index_html, "text/html; charset=utf-8"),
            ("console.css", PackageResources.console_css, "text/css; charset=utf-8"),
            ("common.js", PackageResources.common_js, "text/javascript; charset=utf-8"),
            ("inspector.js", PackageResources.inspector_js, "text/javascript; charset=utf-8"),
            ("monitor.js", PackageResources.monitor_js, "text/javascript; charset=utf-8"),
            ("icon.svg", PackageResources.icon_svg, "image/svg+xml"),
        ]
        var files: [String: Asset] = [:]
        for (name, bytes, type) in table {
            files[name] = Asset(bytes: bytes, contentType: type, etag: "\"\(String(fnv1a(bytes), radix: 16))\"")
        }
        return files
    }()

    /// Self only: no inline script or style, no other origin for anything,
    /// no framing, no plugins; media from this server (the stitched streams).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; "
        + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The headers of every console answer (pages and API).
    static func secure(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Referrer-Policy", "no-referrer")
        response.headers.set("Cross-Origin-Opener-Policy", "same-origin")
        response.headers.set("Cross-Origin-Resource-Policy", "same-origin")
        return response
    }

    /// The file at `name`: 200, or 304 when `If-None-Match` has its ETag.
    /// Revalidated on every use (`no-cache`), so a new binary's console is
    /// seen at once, and a browser's cached copy costs a 304.
    static func response(name: String, request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        guard let asset = files[name] else { throw .notFound("no console file '\(name.prefix(64))'") }
        var headers = HTTPHeaders([("ETag", asset.etag), ("Cache-Control", "no-cache")])
        if let match = request.headers["If-None-Match"],
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag })
        {
            return secure(HTTPResponse(status: 304, headers: headers))
        }
        headers.add("Content-Type", asset.contentType)
        return secure(HTTPResponse(status: 200, headers: headers, body: .bytes(asset.bytes)))
    }

    /// 64-bit FNV-1a: an ETag needs to change with the bytes, not resist forgery.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
