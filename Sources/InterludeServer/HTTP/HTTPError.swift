import Foundation

/// An error that becomes an HTTP answer: a 4xx/5xx status and a message,
/// sent as `{"error":{"status":404,"message":"…"}}`.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code to answer with.
    public var status: Int
    /// What went wrong, for people.
    public var message: String
    /// Extra headers for the answer (e.g. `Allow` on 405).
    public var headers: HTTPHeaders

    public init(status: Int, message: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "HTTP \(status): \(message)" }

    /// 400 Bad Request.
    public static func badRequest(_ message: String) -> HTTPError { HTTPError(status: 400, message: message) }
    /// 404 Not Found.
    public static func notFound(_ message: String) -> HTTPError { HTTPError(status: 404, message: message) }

    /// The JSON error response.
    public var response: HTTPResponse {
        var response = HTTPResponse.json(ErrorBody(error: .init(status: status, message: message)), status: status)
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            var status: Int
            var message: String
        }
        var error: Detail
    }
}
