import Foundation
import InterludeServerTestSupport
import Testing

@testable import InterludeServer

/// Bodies sent from shared bytes (`HTTPResponse.Body.parts`): the slices
/// arrive whole and in order, as many times as asked, and the delivery
/// modes that stream a copy handle them too.
@Suite struct SharedBytesResponseTests {
    /// 300 KB of a pattern (larger than one socket write), and a middle part that differs.
    static let shared = SharedBytes((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let middle = Array("ID3 packets go here".utf8)
    static var expected: [UInt8] {
        let whole = shared.whole.array
        return Array(whole[..<1_128]) + middle + Array(whole[1_128...])
    }

    private func server(_ delivery: HTTPResponse.Delivery = .immediate) throws -> HTTPServer {
        try HTTPServer.start(host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration()) { _ in
            HTTPResponse(
                status: 200, headers: HTTPHeaders([("Content-Type", "video/mp2t")]),
                body: .parts([
                    Self.shared.slice(0..<1_128), SharedBytes(Self.middle).whole,
                    Self.shared.slice(1_128..<Self.shared.count),
                ]),
                delivery: delivery)
        }
    }

    @Test func thePartsArriveInOrderOnEveryRequest() throws {
        let server = try server()
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port)
        for _ in 0..<3 {
            let response = try connection.request("GET", "/segment.ts")
            #expect(response.status == 200)
            #expect(response.headers["Content-Length"] == String(Self.expected.count))
            #expect(response.body == Self.expected)
        }
    }

    @Test func aDrippedAnswerOfPartsSendsTheSameBytes() throws {
        let server = try server(.dripped(chunkSize: 64 * 1024, intervalMilliseconds: 0))
        defer { server.shutdown() }
        #expect(try Loopback.get("/segment.ts", port: server.port).body == Self.expected)
    }

    @Test func aSliceIsClampedToTheBytesThereAre() {
        let bytes = SharedBytes([1, 2, 3])
        #expect(bytes.slice(1..<10).array == [2, 3])
        #expect(bytes.slice(5..<10).array.isEmpty)
        #expect(SharedBytes([]).whole.array.isEmpty)
        #expect(HTTPResponse(body: .parts([bytes.whole, bytes.slice(0..<1)])).bodyLength == 4)
    }
}
