import CMicroHTTPD
import Foundation

/// One request's state, owned by libmicrohttpd's `con_cls` slot from the
/// URI callback to the completion callback. Only the polling thread that
/// owns the connection touches it (timers touch the connection, not this).
final class RequestContext {
    enum Phase {
        case headers
        case body
        case bodyTooLarge
        case delayed(HTTPResponse)
        /// Waiting for a deferred answer; these headers go on it.
        case awaiting(HTTPHeaders)
        case answered
    }

    let target: String
    let startNanoseconds = DispatchTime.now().uptimeNanoseconds
    var method = ""
    var headers = HTTPHeaders()
    var headerBytes = 0
    var body: [UInt8] = []
    var discardedBodyBytes = 0
    var phase = Phase.headers
    var status = 0
    var bodyBytes = 0

    init(target: String) { self.target = target }

    var key: ObjectIdentifier { ObjectIdentifier(self) }
}

extension ServerCore {
    /// URI callback: the first thing libmicrohttpd reports about a request.
    func begin(uri: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
        let target = uri.map { String(cString: $0) } ?? "/"
        inFlight.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestContext(target: target)).toOpaque()
    }

    /// Completion callback: the request is over (answered, reset, timed out).
    func completed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, termination: MHD_RequestTerminationCode) {
        guard let slot = context, let raw = slot.pointee else { return }
        slot.pointee = nil
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        inFlight.subtract(1, ordering: .releasing)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - request.startNanoseconds) / 1_000_000
        logger.access(
            AccessLogEntry(
                method: request.method.isEmpty ? "-" : request.method, target: request.target, status: request.status,
                bodyBytes: request.bodyBytes, durationMilliseconds: elapsed,
                completed: termination.rawValue == 0))
    }

    /// Why a request's Host header fields are not acceptable, nil when they
    /// are: RFC 9112 §3.2 has a server answer 400 to an HTTP/1.1 request
    /// without a Host, and to any request with more than one
    /// (libmicrohttpd 0.9.75 answers the first).
    static func hostProblem(version: UnsafePointer<CChar>?, headers: HTTPHeaders) -> String? {
        var hosts = 0
        for field in headers where HTTPHeaders.namesMatch(field.name, "Host") { hosts += 1 }
        if hosts > 1 { return "the request has \(hosts) Host header fields; one is allowed (RFC 9112 §3.2)" }
        guard hosts == 0, let version, strcmp(version, "HTTP/1.1") == 0 else { return nil }
        return "an HTTP/1.1 request needs a Host header field (RFC 9112 §3.2)"
    }

    /// Access handler: called once when headers are in, once per body chunk,
    /// once at the end, and again after a resume.
    func access(
        connection: OpaquePointer?, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let connection, let context else { return .NO }
        if context.pointee == nil {
            // No URI callback ran (should not happen); track the request anyway.
            context.pointee = begin(uri: nil)
        }
        let request = Unmanaged<RequestContext>.fromOpaque(context.pointee!).takeUnretainedValue()
        switch request.phase {
        case .headers:
            request.method = method.map { String(cString: $0) } ?? "GET"
            readHeaders(connection, into: request)
            if request.headerBytes > configuration.maxHeaderBytes {
                return answer(
                    HTTPError(status: 431, message: "request headers exceed \(configuration.maxHeaderBytes) bytes")
                        .response,
                    connection: connection, request: request)
            }
            if let length = request.headers["Content-Length"].flatMap(Int.init), length > configuration.maxBodyBytes {
                return answer(bodyTooLarge, connection: connection, request: request)
            }
            if let problem = Self.hostProblem(version: version, headers: request.headers) {
                return answer(
                    HTTPError(status: 400, message: problem).response, connection: connection, request: request)
            }
            request.phase = .body
            return .YES
        case .body, .bodyTooLarge:
            let size = uploadSize?.pointee ?? 0
            if size > 0 {
                receive(upload, size: size, into: request)
                uploadSize?.pointee = 0
                // A body that keeps coming long past the limit is not worth reading.
                return request.discardedBodyBytes > 4 * configuration.maxBodyBytes ? .NO : .YES
            }
            if case .bodyTooLarge = request.phase {
                return answer(bodyTooLarge, connection: connection, request: request)
            }
            return answer(route(request), connection: connection, request: request)
        case .delayed(let response):
            return answer(response, connection: connection, request: request)
        case .awaiting(let headers):
            var response =
                takeDeferredAnswer(key: request.key)
                ?? HTTPError(status: 503, message: "the server is shutting down").response
            for field in headers where response.headers[field.name] == nil {
                response.headers.add(field.name, field.value)
            }
            if case .deferred = response.delivery {
                response = HTTPError(status: 500, message: "a deferred answer deferred again").response
            }
            return answer(response, connection: connection, request: request)
        case .answered:
            // Answered early (413/431): swallow whatever body still arrives.
            uploadSize?.pointee = 0
            return .YES
        }
    }

    private var bodyTooLarge: HTTPResponse {
        HTTPError(status: 413, message: "request body exceeds \(configuration.maxBodyBytes) bytes").response
    }

    private func receive(_ upload: UnsafePointer<CChar>?, size: Int, into request: RequestContext) {
        guard let upload else { return }
        if case .body = request.phase, request.body.count + size <= configuration.maxBodyBytes {
            upload.withMemoryRebound(to: UInt8.self, capacity: size) {
                request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        } else {
            request.phase = .bodyTooLarge
            request.body = []
            request.discardedBodyBytes += size
        }
    }

    private func readHeaders(_ connection: OpaquePointer, into request: RequestContext) {
        let cls = Unmanaged.passUnretained(request).toOpaque()
        _ = MHD_get_connection_values(
            connection, .HEADER_KIND,
            { cls, _, key, value in
                let request = Unmanaged<RequestContext>.fromOpaque(cls!).takeUnretainedValue()
                let name = key.map { String(cString: $0) } ?? ""
                let text = value.map { String(cString: $0) } ?? ""
                request.headers.add(name, text)
                request.headerBytes += name.utf8.count + text.utf8.count + 4
                return .YES
            }, cls)
        request.headerBytes += request.method.utf8.count + request.target.utf8.count + 12
    }

    private func route(_ request: RequestContext) -> HTTPResponse {
        do {
            let httpRequest = try HTTPRequest(
                method: request.method, target: request.target, headers: request.headers, body: request.body)
            return handler(httpRequest)
        } catch {
            return error.response
        }
    }
}
