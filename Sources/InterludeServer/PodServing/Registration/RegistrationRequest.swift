import Foundation

/// A stream registration's body and headers, read strictly: targeting
/// parameters, `api-key` and `auth-token`. Form-encoded (the default, as
/// Google's API documents it) or JSON (top-level parameters and/or a
/// `targeting_parameters` object, the VOD form). Anything malformed is a
/// 4xx before anything is stored.
struct RegistrationRequest: Sendable, Hashable {
    /// Targeting parameters (`cust_params`, `ppid`, …), values as sent.
    var targeting: [String: String]
    /// `api-key` from the body or `Authorization: DCLKDAI key="…"`.
    var apiKey: String?
    /// `auth-token` from the body or `Authorization: DCLKDAI token="…"`.
    var authToken: String?

    /// Largest registration body (a few targeting parameters need far less).
    static let maxBodyBytes = 64 * 1024
    /// Most targeting parameters.
    static let maxParameters = 200
    /// Longest parameter name and value.
    static let maxNameBytes = 128
    static let maxValueBytes = 8 * 1024

    init(targeting: [String: String] = [:], apiKey: String? = nil, authToken: String? = nil) {
        self.targeting = targeting
        self.apiKey = apiKey
        self.authToken = authToken
    }

    init(request: HTTPRequest) throws(HTTPError) {
        guard request.body.count <= Self.maxBodyBytes else {
            throw HTTPError(status: 413, message: "registration body is over \(Self.maxBodyBytes) bytes")
        }
        let contentType = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        var parameters: [(String, String)]
        switch contentType ?? "" {
        case "application/json", "text/json":
            parameters = try Self.jsonParameters(request.body)
        case "", "application/x-www-form-urlencoded", "text/plain":
            // text/plain: what `fetch` sends for a string body, as Google's
            // own registration sample posts its form.
            parameters = try Self.formParameters(request.body)
        default:
            throw HTTPError(
                status: 415,
                message:
                    "registration body must be application/x-www-form-urlencoded or application/json, got \(contentType ?? "")"
            )
        }
        if let authorization = request.headers["Authorization"] {
            parameters += try Self.authorizationParameters(authorization)
        }
        if !request.rawQuery.isEmpty {
            // Parameters in the URL's query (as some clients send `api-key`,
            // `auth-token` and targeting), where the body does not give them.
            let named = Set(parameters.map(\.0))
            parameters += try Self.formParameters(Array(request.rawQuery.utf8)).filter { !named.contains($0.0) }
        }
        self.init()
        for (name, value) in parameters {
            switch name {
            case "api-key": apiKey = value
            case "auth-token": authToken = value
            default:
                guard targeting[name] == nil else { throw .badRequest("targeting parameter '\(name)' given twice") }
                targeting[name] = value
            }
        }
        guard targeting.count <= Self.maxParameters else {
            throw .badRequest("at most \(Self.maxParameters) targeting parameters, got \(targeting.count)")
        }
    }

    private static func checked(_ name: String, _ value: String) throws(HTTPError) -> (String, String) {
        guard (1...maxNameBytes).contains(name.utf8.count),
            name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f })
        else {
            throw .badRequest("parameter names must be 1–\(maxNameBytes) printable bytes, got '\(name.prefix(40))'")
        }
        guard value.utf8.count <= maxValueBytes, !value.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw .badRequest("parameter '\(name)' must be at most \(maxValueBytes) bytes without control characters")
        }
        return (name, value)
    }

    static func formParameters(_ body: [UInt8]) throws(HTTPError) -> [(String, String)] {
        guard let text = String(bytes: body, encoding: .utf8) else { throw .badRequest("form body is not UTF-8") }
        var parameters: [(String, String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = equals.map { pair[..<$0] } ?? pair
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let name = PercentDecoding.decode(rawName, plusAsSpace: true),
                let value = PercentDecoding.decode(rawValue, plusAsSpace: true)
            else { throw .badRequest("form body has malformed percent-encoding near '\(pair.prefix(40))'") }
            parameters.append(try checked(name, value))
        }
        return parameters
    }

    static func jsonParameters(_ body: [UInt8]) throws(HTTPError) -> [(String, String)] {
        let top: [String: JSONScalarOrObject]
        do {
            top = try JSONDecoder().decode([String: JSONScalarOrObject].self, from: Data(body))
        } catch {
            throw .badRequest("registration JSON must be an object of strings, numbers or booleans")
        }
        var parameters: [(String, String)] = []
        for (name, value) in top.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .scalar where name == "targeting_parameters":
                throw .badRequest("targeting_parameters must be an object of strings, numbers or booleans")
            case .scalar(let text?): parameters.append(try checked(name, text))
            case .scalar(nil): continue
            case .object(let nested):
                guard name == "targeting_parameters" else {
                    throw .badRequest("parameter '\(name)' must be a string, number or boolean")
                }
                for (nestedName, nestedValue) in nested.sorted(by: { $0.key < $1.key }) {
                    guard case .scalar(let text) = nestedValue else {
                        throw .badRequest("targeting_parameters.\(nestedName) must be a string, number or boolean")
                    }
                    if let text { parameters.append(try checked(nestedName, text)) }
                }
            }
        }
        return parameters
    }

    /// `DCLKDAI key="…"` and/or `token="…"` (Google's Authorization scheme).
    static func authorizationParameters(_ header: String) throws(HTTPError) -> [(String, String)] {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("DCLKDAI ") else {
            throw HTTPError(status: 401, message: "Authorization must use the DCLKDAI scheme")
        }
        var parameters: [(String, String)] = []
        for part in trimmed.dropFirst("DCLKDAI ".count).split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let equals = item.firstIndex(of: "=") else {
                throw HTTPError(status: 401, message: "Authorization parameters must be name=\"value\"")
            }
            var value = item[item.index(after: equals)...]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            switch item[..<equals] {
            case "key": parameters.append(("api-key", String(value)))
            case "token": parameters.append(("auth-token", String(value)))
            default: throw HTTPError(status: 401, message: "Authorization knows key and token only")
            }
        }
        return parameters
    }
}

/// A JSON value of a registration body: a scalar as text (nil for null), or
/// an object of them (one level, for `targeting_parameters`).
private enum JSONScalarOrObject: Decodable {
    case scalar(String?)
    case object([String: JSONScalarOrObject])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .scalar(nil)
        } else if let text = try? container.decode(String.self) {
            self = .scalar(text)
        } else if let flag = try? container.decode(Bool.self) {
            self = .scalar(flag ? "true" : "false")
        } else if let whole = try? container.decode(Int64.self) {
            self = .scalar(String(whole))
        } else if let number = try? container.decode(Double.self) {
            self = .scalar(String(number))
        } else if decoder.codingPath.isEmpty || decoder.codingPath.count == 1 {
            self = .object(try container.decode([String: JSONScalarOrObject].self))
        } else {
            throw DecodingError.typeMismatch(
                JSONScalarOrObject.self,
                .init(codingPath: decoder.codingPath, debugDescription: "nested too deep or an array"))
        }
    }
}
