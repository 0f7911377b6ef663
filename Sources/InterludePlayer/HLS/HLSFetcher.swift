import Foundation
import Interlude

/// The display's HTTP exchanges, off the main actor: each bounded by its
/// timeout on the display's clock (unless the client enforces it), and a
/// segment's bytes read for timed metadata before they are dropped.
enum HLSFetcher {
    /// The answer to `fetch`, or nil when the task was cancelled.
    static func fetch(
        _ fetch: HLSFetch, http: any HTTPClient, clock: any AdClock, readsSegment: Bool
    ) async -> Result<HLSFetchResponse, HTTPClientError>? {
        let request = fetch.request
        let response: HTTPResponse
        do {
            if http.enforcesTimeout {
                response = try await http.send(request)
            } else {
                response = try await race(request, http: http, clock: clock)
            }
        } catch let error as HTTPClientError {
            return Task.isCancelled ? nil : .failure(error)
        } catch {
            // Cancelled (the only other error a client throws).
            return Task.isCancelled ? nil : .failure(.unreachable("\(error)"))
        }
        guard !Task.isCancelled else { return nil }
        let isSuccess = (200..<300).contains(response.statusCode)
        // A segment is read where it lies and dropped; only a playlist's bytes go on.
        let contents = readsSegment && isSuccess && fetch.readsContents ? HLSSegmentContents.read(response.body) : nil
        return .success(
            HLSFetchResponse(
                statusCode: response.statusCode, url: response.url, headers: response.headers,
                body: readsSegment ? [] : [UInt8](response.body), byteCount: response.body.count, contents: contents))
    }

    /// `request` raced against its timeout on `clock`.
    private static func race(_ request: HTTPRequest, http: any HTTPClient, clock: any AdClock) async throws
        -> HTTPResponse
    {
        let deadline = clock.now + request.timeout
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask { try await http.send(request) }
            group.addTask {
                try await clock.sleep(until: deadline)
                throw HTTPClientError.timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPClientError.timedOut }
            return first
        }
    }
}
