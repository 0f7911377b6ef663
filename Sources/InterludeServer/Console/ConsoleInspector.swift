import Foundation
import Interlude
import InterludeInspection

/// `POST /api/inspect`: the tag inspector behind the console. Answers the
/// report `interlude inspect --json` prints, for XML in the body or for a
/// tag URL whose wrapper chain it follows (loopback only unless the server
/// allows remote tags).
final class ConsoleInspector: Sendable {
    /// What the console sends: a tag URL or the document itself.
    struct Request: Decodable, Sendable {
        var url: String?
        var xml: String?
        var strict: Bool?
    }

    enum Input: Sendable, Equatable {
        case url(URL)
        case xml(Data, strict: Bool)
    }

    let options: ConsoleOptions
    private let running = Locked(0)
    private let remoteClient: (any Interlude.HTTPClient)?

    init(options: ConsoleOptions) {
        self.options = options
        remoteClient = options.allowsRemoteTags ? URLSessionHTTPClient() : nil
    }

    /// Longest tag URL accepted.
    static let maxURLLength = 8 * 1024

    /// The input of a request: JSON `{"url"}` or `{"xml", "strict"}`, or an
    /// XML body (`Content-Type: application/xml` or `text/xml`).
    static func input(of request: HTTPRequest) throws(HTTPError) -> Input {
        guard !request.body.isEmpty else {
            throw .badRequest(
                #"empty body: send {"url": "http://…"} or {"xml": "<VAST …>"} as JSON, or the XML itself"#)
        }
        let type =
            (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        switch type {
        case "application/xml", "text/xml":
            return .xml(Data(request.body), strict: request.query("strict") == "1" || request.query("strict") == "true")
        case "application/json", "":
            let decoded: Request
            do {
                decoded = try JSONDecoder().decode(Request.self, from: Data(request.body))
            } catch {
                throw .badRequest("the body is not the JSON the inspector takes (\(Self.describe(error)))")
            }
            switch (decoded.url, decoded.xml) {
            case (let text?, nil):
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed.utf8.count <= maxURLLength else {
                    throw .badRequest("the tag URL is longer than \(maxURLLength) bytes")
                }
                guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https", url.host?.isEmpty == false
                else {
                    throw .badRequest("'\(trimmed.prefix(200))' is not an http(s) URL with a host")
                }
                return .url(url)
            case (nil, let xml?):
                return .xml(Data(xml.utf8), strict: decoded.strict ?? false)
            default:
                throw .badRequest(#"send exactly one of "url" and "xml""#)
            }
        default:
            throw HTTPError(
                status: 415, message: "send application/json or application/xml, not '\(type.prefix(80))'")
        }
    }

    /// The inspection, answered off the polling threads.
    func respond(to request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let input = try Self.input(of: request)
        let admitted = running.withLock { count -> Bool in
            guard count < options.maxConcurrentInspections else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw HTTPError(
                status: 503, message: "\(options.maxConcurrentInspections) inspections are running; try again",
                headers: HTTPHeaders([("Retry-After", "1")]))
        }
        return .deferred { [self] in
            defer { running.withLock { $0 -= 1 } }
            do throws(HTTPError) {
                let report = try await inspect(input)
                return HTTPResponse(
                    status: 200,
                    headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: .bytes(Array(report.json().utf8)))
            } catch {
                return error.response
            }
        }
    }

    /// The report for one input (what `interlude inspect --json` prints for it).
    func inspect(_ input: Input) async throws(HTTPError) -> InspectionReport {
        switch input {
        case .xml(let data, let strict):
            return InspectionReport.make(from: data, strict: strict)
        case .url(let url):
            let client: any Interlude.HTTPClient
            if let remoteClient {
                client = remoteClient
            } else {
                // Refused before any fetch: the caller learns why at once, as a 403.
                do {
                    _ = try options.hostPolicy.addresses(for: url)
                } catch {
                    throw HTTPError(status: 403, message: error.message)
                }
                client = LoopbackTagClient(policy: options.hostPolicy)
            }
            let resolver = AdTagResolver(httpClient: client)
            return InspectionReport.make(from: await resolver.resolve(tagURL: url, timeout: options.inspectionTimeout))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "malformed JSON: \(context.debugDescription.prefix(120))"
        case DecodingError.typeMismatch(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        default: "malformed JSON"
        }
    }
}
