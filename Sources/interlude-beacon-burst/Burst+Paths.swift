import Foundation

#if canImport(Glibc)
    import Glibc
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let noSignal: Int32 = 0
#endif

extension Burst {
    /// GETs each of `paths` once over `connections` keep-alive connections;
    /// prints the tally and returns the exit status (0 when every answer was 204).
    static func runPathList(port: UInt16, paths: [String], connections: Int) -> Int32 {
        let width = max(1, min(connections, paths.count))
        let tallies = (0..<width).map { _ in Tally() }
        let group = DispatchGroup()
        let started = DispatchTime.now().uptimeNanoseconds
        for worker in 0..<width {
            let share = stride(from: worker, to: paths.count, by: width).map { paths[$0] }
            let tally = tallies[worker]
            group.enter()
            Thread {
                run(port: port, paths: share, tally: tally)
                group.leave()
            }.start()
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let answered = tallies.reduce(0) { $0 + $1.answered204 }
        let other = tallies.reduce(0) { $0 + $1.other }
        print(
            "sent=\(paths.count) answered204=\(answered) other=\(other) failedConnections=\(tallies.filter(\.failed).count) seconds=\(String(format: "%.3f", seconds)) rate=\(Int(Double(answered + other) / seconds))"
        )
        return answered == paths.count ? 0 : 1
    }

    /// One connection's requests, reading each answer's body by its length.
    static func run(port: UInt16, paths: [String], tally: Tally) {
        let descriptor = connectLoopback(port: port)
        guard descriptor >= 0 else {
            tally.failed = true
            return
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var pending: [UInt8] = []
        for path in paths {
            let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, noSignal) }) == bytes.count else {
                tally.failed = true
                return
            }
            var headEnd: Int?
            while headEnd == nil {
                headEnd = pending.indices.dropLast(3).first {
                    pending[$0] == 13 && pending[$0 + 1] == 10 && pending[$0 + 2] == 13 && pending[$0 + 3] == 10
                }
                if headEnd == nil {
                    let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    guard got > 0 else {
                        tally.failed = true
                        return
                    }
                    pending += buffer.prefix(got)
                }
            }
            let head = String(decoding: pending[..<headEnd!], as: UTF8.self).lowercased()
            let length =
                head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            while pending.count < headEnd! + 4 + length {
                let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard got > 0 else {
                    tally.failed = true
                    return
                }
                pending += buffer.prefix(got)
            }
            if head.hasPrefix("http/1.1 204") { tally.answered204 += 1 } else { tally.other += 1 }
            pending.removeFirst(headEnd! + 4 + length)
        }
    }
}
