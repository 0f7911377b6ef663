import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One address a tag host resolved to: the bytes of an IPv4 or IPv6 address.
package enum ResolvedAddress: Sendable, Hashable, CustomStringConvertible {
    /// Four bytes, network order.
    case v4([UInt8])
    /// Sixteen bytes, network order.
    case v6([UInt8])

    /// True for 127.0.0.0/8, `::1` and IPv4-mapped `::ffff:127.x.y.z`: the
    /// addresses that reach this machine's loopback interface and nothing
    /// else. `0.0.0.0`, `::`, private ranges and NAT64 forms are not.
    package var isLoopback: Bool {
        switch self {
        case .v4(let bytes): return bytes.count == 4 && bytes[0] == 127
        case .v6(let bytes):
            guard bytes.count == 16 else { return false }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
            return mapped && bytes[12] == 127
        }
    }

    package var description: String {
        switch self {
        case .v4(let bytes): return bytes.map(String.init).joined(separator: ".")
        case .v6(let bytes):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// Why the console's inspector will not fetch a URL.
package struct TagFetchRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// For people: names the host, the address and the option that would allow it.
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Which hosts the console's inspector may fetch tags from. By default only
/// this machine's loopback: a host is allowed when every address it resolves
/// to is a loopback address (so `localhost`, `127.1`, `2130706433`,
/// `[::1]`, `[::ffff:127.0.0.1]` are, and a DNS name that resolves anywhere
/// else is not), and the fetch then connects to one of exactly those
/// addresses, never resolving again (no DNS rebinding between check and
/// connect). Only plain `http` is fetched that way.
package struct TagHostPolicy: Sendable {
    /// Resolves a host name (or numeric form) to addresses; throws a refusal
    /// when it cannot. Injected so tests never ask a real DNS server.
    package typealias Resolver = @Sendable (_ host: String, _ port: UInt16) throws(TagFetchRefusal) -> [ResolvedAddress]

    /// The option of `interlude serve` that lifts the restriction, named in refusals.
    package static let remoteOption = "--console-allow-remote-tags"

    package let resolve: Resolver

    package init(resolve: @escaping Resolver = TagHostPolicy.systemResolve) {
        self.resolve = resolve
    }

    /// The loopback addresses to connect to for `url`, or why not.
    package func addresses(for url: URL) throws(TagFetchRefusal) -> (
        host: String, port: UInt16, addresses: [ResolvedAddress]
    ) {
        guard let scheme = url.scheme?.lowercased() else {
            throw TagFetchRefusal("'\(Self.clip(url.absoluteString))' has no scheme")
        }
        guard scheme == "http" else {
            if scheme == "https" {
                throw TagFetchRefusal(
                    "\(Self.clip(url.absoluteString)): only plain http tags on loopback are fetched; https (and any other host) needs interlude serve \(Self.remoteOption)"
                )
            }
            throw TagFetchRefusal(
                "\(Self.clip(url.absoluteString)): only http URLs are fetched, not '\(Self.clip(scheme))'")
        }
        guard let rawHost = url.host, !rawHost.isEmpty else {
            throw TagFetchRefusal("\(Self.clip(url.absoluteString)) has no host")
        }
        var host = rawHost
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = UInt16(exactly: url.port ?? 80), port > 0 else {
            throw TagFetchRefusal("\(Self.clip(url.absoluteString)) has port \(url.port ?? 0)")
        }
        let addresses = try resolve(host, port)
        guard !addresses.isEmpty else { throw TagFetchRefusal("\(Self.clip(host)) resolves to no address") }
        if let outside = addresses.first(where: { !$0.isLoopback }) {
            throw TagFetchRefusal(
                "\(Self.clip(host)) is not this machine's loopback (it resolves to \(outside)); the console fetches tags only from loopback unless interlude serve runs with \(Self.remoteOption)"
            )
        }
        return (host, port, addresses)
    }

    /// `getaddrinfo`: numeric forms (`127.1`, `0x7f.1`, `2130706433`, `::1`)
    /// and names (`/etc/hosts`, DNS) alike.
    package static let systemResolve: Resolver = { host, port throws(TagFetchRefusal) in
        guard !host.contains("\0"), host.utf8.count <= 253 else { throw TagFetchRefusal("host name is not valid") }
        var hints = addrinfo()
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw TagFetchRefusal("cannot resolve \(clip(host)): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var entry = list
        while let info = entry {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        addresses.append(.v4(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) }))
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        addresses.append(.v6(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) }))
                    }
                default: break
                }
            }
            entry = info.pointee.ai_next
        }
        return addresses
    }

    static func clip(_ text: String) -> String { text.count > 200 ? String(text.prefix(200)) + "…" : text }
}
