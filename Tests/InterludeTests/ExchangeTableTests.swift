import Foundation
import Testing

@testable import Interlude

/// The URLSession delegate's bookkeeping, driven the way URLSession drives it.
@Suite("URLSession exchange table")
struct ExchangeTableTests {
    private static let url = URL(string: "http://127.0.0.1:9/large")!

    /// Feeds `chunks` chunks of 4 KiB to one exchange and counts how often
    /// the body's storage moved (a move is a copy of everything so far).
    private static func storageMoves(chunks: Int, declaredLength: Int64) async -> (moves: Int, error: (any Error)?) {
        let table = ExchangeTable()
        let chunk = Data(repeating: 0xAB, count: 4096)
        var moves = 0
        do {
            _ = try await withCheckedThrowingContinuation { continuation in
                table.begin(
                    7,
                    Exchange(
                        continuation: continuation, originalURL: url, limit: 64 << 20, maxRedirects: 0, deadline: nil)
                )
                var last: UnsafeRawPointer?
                for _ in 0..<chunks {
                    _ = table.receive(chunk, forTask: 7, expectedLength: declaredLength)
                    let address = table.bodyStorageAddress(forTask: 7)
                    if address != last {
                        moves += 1
                        last = address
                    }
                }
                table.expire(7)  // ends the exchange (as its deadline would)
            }
            return (moves, nil)
        } catch {
            return (moves, error)
        }
    }

    @Test func aBodyOfUnknownLengthGrowsGeometricallyNotByACopyPerChunk() async {
        // 4 MiB in 1,024 chunks: a copy per chunk would move it 1,024 times
        // (2 GiB copied); doubling moves it about log2(1024) = 10 times.
        let (moves, error) = await Self.storageMoves(chunks: 1024, declaredLength: -1)
        #expect(moves <= 2 * 10 + 4, "the body moved \(moves) times over 1,024 chunks")
        #expect(error as? HTTPClientError == .timedOut)
    }

    @Test func aDeclaredLengthIsAllocatedOnce() async {
        let (moves, _) = await Self.storageMoves(chunks: 1024, declaredLength: 1024 * 4096)
        #expect(moves == 1)
    }

    @Test func aBodyPastTheLimitFailsTheExchangeAndKeepsNoMore() async throws {
        let table = ExchangeTable()
        let outcome: Result<HTTPResponse, any Error> = await withCheckedContinuation { outer in
            Task {
                do {
                    let response = try await withCheckedThrowingContinuation { continuation in
                        table.begin(
                            3,
                            Exchange(
                                continuation: continuation, originalURL: Self.url, limit: 10_000, maxRedirects: 0,
                                deadline: nil))
                        #expect(!table.receive(Data(count: 8000), forTask: 3, expectedLength: -1))
                        #expect(table.receive(Data(count: 8000), forTask: 3, expectedLength: -1))
                        #expect(table.receive(Data(count: 8000), forTask: 3, expectedLength: -1))
                        table.expire(3)
                    }
                    outer.resume(returning: .success(response))
                } catch {
                    outer.resume(returning: .failure(error))
                }
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("an over-limit body was answered")
            return
        }
        #expect(error as? HTTPClientError == .responseTooLarge(limit: 10_000))
    }
}
