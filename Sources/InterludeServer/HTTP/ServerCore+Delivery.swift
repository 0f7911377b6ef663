import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A body sent through a content-reader callback: dripped or truncated.
/// Touched only by the polling thread that owns the connection.
final class StreamedBody {
    let bytes: [UInt8]
    let chunkSize: Int
    let intervalMilliseconds: Int
    /// Bytes to send before failing the connection (truncation), or all.
    let limit: Int
    let connection: OpaquePointer
    unowned let core: ServerCore
    var nextChunkAt: UInt64 = 0

    init(
        bytes: [UInt8], chunkSize: Int, intervalMilliseconds: Int, limit: Int, connection: OpaquePointer,
        core: ServerCore
    ) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
        self.intervalMilliseconds = max(0, intervalMilliseconds)
        self.limit = min(max(0, limit), bytes.count)
        self.connection = connection
        self.core = core
    }

    /// libmicrohttpd's content reader: bytes written, -1 end, -2 abort.
    func read(position: UInt64, into buffer: UnsafeMutablePointer<CChar>?, max: Int) -> Int {
        let position = Int(position)
        guard position < limit else { return position >= bytes.count ? -1 : -2 }
        let now = DispatchTime.now().uptimeNanoseconds
        if intervalMilliseconds > 0, now < nextChunkAt, !core.isHurrying {
            // Not due yet: park the connection instead of spinning the poll loop.
            core.suspend(
                connection, key: ObjectIdentifier(self), milliseconds: Int((nextChunkAt - now) / 1_000_000) + 1)
            return 0
        }
        guard let buffer else { return -2 }
        let count = Swift.min(chunkSize, max, limit - position)
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + position, byteCount: count)
        }
        nextChunkAt = now + UInt64(intervalMilliseconds) * 1_000_000
        return count
    }
}

extension ServerCore {
    /// Queues `response` on the connection, or parks/resets as its delivery says.
    func answer(_ response: HTTPResponse, connection: OpaquePointer, request: RequestContext) -> MHD_Result {
        var response = response
        if draining.load(ordering: .relaxed) { response.headers.set("Connection", "close") }
        request.status = response.status
        request.bodyBytes = response.bodyLength
        switch response.delivery {
        case .reset:
            request.phase = .answered
            request.status = 0
            resetConnection(connection)
            return .NO
        case .delayed(let milliseconds):
            response.delivery = .immediate
            request.phase = .delayed(response)
            suspend(connection, key: request.key, milliseconds: milliseconds)
            return .YES
        case .deferred(let pending):
            request.phase = .awaiting(response.headers)
            startDeferred(pending, connection: connection, key: request.key)
            return .YES
        case .immediate, .dripped, .truncated:
            request.phase = .answered
            if let mhdResponse = makeResponse(response, connection: connection) {
                return queue(mhdResponse, status: response.status, connection: connection)
            }
            // The file went away between routing and sending.
            let failure = HTTPError(status: 404, message: "file vanished").response
            request.status = failure.status
            guard let fallback = makeResponse(failure, connection: connection) else { return .NO }
            return queue(fallback, status: failure.status, connection: connection)
        }
    }

    private func queue(_ mhdResponse: OpaquePointer, status: Int, connection: OpaquePointer) -> MHD_Result {
        let result = MHD_queue_response(connection, UInt32(status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    private func makeResponse(_ response: HTTPResponse, connection: OpaquePointer) -> OpaquePointer? {
        let mhdResponse: OpaquePointer?
        switch (response.delivery, response.body) {
        case (.immediate, .bytes(let bytes)), (.delayed, .bytes(let bytes)), (.reset, .bytes(let bytes)),
            (.deferred, .bytes(let bytes)):
            mhdResponse = bytes.withUnsafeBytes { buffer in
                interlude_mhd_response_copying(buffer.baseAddress, buffer.count)
            }
        case (.immediate, .file(let path, let offset, let length)), (.delayed, .file(let path, let offset, let length)),
            (.reset, .file(let path, let offset, let length)), (.deferred, .file(let path, let offset, let length)):
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            // libmicrohttpd closes the descriptor when the response is destroyed.
            mhdResponse = MHD_create_response_from_fd_at_offset64(length, descriptor, offset)
            if mhdResponse == nil { close(descriptor) }
        case (.immediate, .parts(let parts)), (.delayed, .parts(let parts)), (.reset, .parts(let parts)),
            (.deferred, .parts(let parts)):
            mhdResponse = Self.sharedResponse(parts)
        case (.dripped(let chunkSize, let interval), _):
            mhdResponse = streamed(
                response, chunkSize: chunkSize, interval: interval, limit: Int.max, connection: connection)
        case (.truncated(let afterBytes), _):
            mhdResponse = streamed(
                response, chunkSize: 16 * 1024, interval: 0, limit: afterBytes, connection: connection)
        }
        guard let mhdResponse else { return nil }
        for field in response.headers {
            _ = MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        return mhdResponse
    }

    private func streamed(
        _ response: HTTPResponse, chunkSize: Int, interval: Int, limit: Int, connection: OpaquePointer
    ) -> OpaquePointer? {
        let bytes: [UInt8]
        switch response.body {
        case .bytes(let data): bytes = data
        case .file(let path, let offset, let length):
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            try? handle.seek(toOffset: offset)
            bytes = [UInt8]((try? handle.read(upToCount: Int(length))) ?? Data())
        case .parts(let parts): bytes = parts.flatMap(\.array)
        }
        let body = StreamedBody(
            bytes: bytes, chunkSize: chunkSize, intervalMilliseconds: interval, limit: limit, connection: connection,
            core: self)
        let cls = Unmanaged.passRetained(body).toOpaque()
        return MHD_create_response_from_callback(
            UInt64(bytes.count), max(1, min(chunkSize, 64 * 1024)),
            { cls, position, buffer, max in
                Unmanaged<StreamedBody>.fromOpaque(cls!).takeUnretainedValue().read(
                    position: position, into: buffer, max: max)
            }, cls,
            { cls in Unmanaged<StreamedBody>.fromOpaque(cls!).release() })
    }

    /// A response sending `parts` from where they are: libmicrohttpd keeps
    /// a copy of the vector, not of the bytes, and the slices stay retained
    /// until it destroys the response.
    private static func sharedResponse(_ parts: [SharedBytes.Slice]) -> OpaquePointer? {
        let retained = Unmanaged.passRetained(RetainedParts(parts)).toOpaque()
        let vectors = parts.filter { !$0.range.isEmpty }.map { part in
            MHD_IoVec(iov_base: part.bytes.address(of: part.range.lowerBound), iov_len: part.range.count)
        }
        let response = vectors.withUnsafeBufferPointer { buffer in
            MHD_create_response_from_iovec(
                buffer.baseAddress, UInt32(buffer.count),
                { cls in Unmanaged<RetainedParts>.fromOpaque(cls!).release() }, retained)
        }
        if response == nil { Unmanaged<RetainedParts>.fromOpaque(retained).release() }
        return response
    }

    /// Closes with RST: `SO_LINGER` of zero makes `close` discard the socket
    /// at once, which is what a player sees when a middlebox drops it.
    private func resetConnection(_ connection: OpaquePointer) {
        let descriptor = interlude_mhd_connection_fd(connection)
        guard descriptor >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}

/// The slices a shared-bytes response sends, kept alive until libmicrohttpd frees it.
private final class RetainedParts: Sendable {
    let parts: [SharedBytes.Slice]
    init(_ parts: [SharedBytes.Slice]) { self.parts = parts }
}
