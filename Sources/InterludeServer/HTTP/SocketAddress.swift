import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 socket address from a literal host (or `localhost`).
/// Package-wide: the test support's loopback client connects with it too.
package struct SocketAddress {
    enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    let storage: Storage
    /// The host as it appears in a URL or `Host` header (`[::1]` for IPv6).
    package let displayHost: String

    package init?(host: String, port: UInt16) {
        var literal = host
        if literal == "localhost" { literal = "127.0.0.1" }
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            #if canImport(Darwin)
                v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            displayHost = literal
        } else if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            #if canImport(Darwin)
                v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            displayHost = "[\(literal)]"
        } else {
            return nil
        }
    }

    /// `::`: every interface; served dual-stack so IPv4 clients reach it too.
    var isIPv6Any: Bool { displayHost == "[::]" }

    package var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// The size of the address `withSockAddr` passes.
    package var length: socklen_t {
        switch storage {
        case .v4: socklen_t(MemoryLayout<sockaddr_in>.size)
        case .v6: socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }

    /// Calls `body` with a `sockaddr` pointer valid for the call.
    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch storage {
        case .v4(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }
}
