import Foundation

/// A stream request as plain values, checked: what the registration call
/// needs, read off the main-actor ``StreamRequest`` once.
struct StreamRegistrationRequest: Sendable, Hashable {
    var kind: StreamRequest.Kind
    var networkCode: String
    var serverURL: URL
    var apiKey: String?
    var authToken: String?
    var adTagParameters: [String: String]
    var contentURL: URL?
    var streamActivityMonitorID: String?
    var timeout: TimeInterval

    /// The request's values, or 1101 (`invalidArguments`) naming what is
    /// wrong, before anything is sent.
    @MainActor
    init(_ request: StreamRequest) throws(AdError) {
        func invalid(_ message: String) -> AdError {
            AdError(type: .loadingFailed, code: .invalidArguments, message: message)
        }
        let networkCode = request.networkCode.trimmingWhitespace
        guard !networkCode.isEmpty else { throw invalid("the stream request has no network code") }
        if case .live(let key) = request.kind, key.trimmingWhitespace.isEmpty {
            throw invalid("the livestream request has no custom asset key")
        }
        guard let serverURL = request.serverURL else {
            throw invalid("the stream request has no serverURL (the pod-serving API's base URL)")
        }
        guard serverURL.isHTTPOrHTTPS, serverURL.host != nil else {
            throw invalid("the stream request's serverURL is not an http(s) URL: \(serverURL.absoluteString)")
        }
        guard request.registrationTimeout.isFinite, request.registrationTimeout > 0 else {
            throw invalid("the stream request's registrationTimeout must be a positive number of seconds")
        }
        if case .live(let key) = request.kind {
            kind = .live(customAssetKey: key.trimmingWhitespace)
        } else {
            kind = .vod
        }
        self.networkCode = networkCode
        self.serverURL = serverURL
        apiKey = request.apiKey
        authToken = request.authToken
        adTagParameters = request.adTagParameters
        contentURL = request.contentURL
        streamActivityMonitorID = request.streamActivityMonitorID
        timeout = request.registrationTimeout
    }

    /// The registration URL of DAI.md §2 under ``serverURL`` (which may have a path of its own).
    var url: URL {
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let network = Self.pathSegment(networkCode)
        switch kind {
        case .live(let key):
            return URL(
                string: base + "/ssai/pods/api/v1/network/\(network)/custom_asset/\(Self.pathSegment(key))/stream")!
        case .vod:
            return URL(string: base + "/ondemand/pods/api/v1/network/\(network)/stream_registration")!
        }
    }

    /// Targeting as sent: the app's parameters, plus `url` from the content URL.
    var targeting: [String: String] {
        var values = adTagParameters
        if let contentURL, values["url"] == nil { values["url"] = contentURL.absoluteString }
        return values
    }

    /// The registration call: a form body for a livestream, JSON for VOD
    /// (`{"targeting_parameters":{…}}`), with `api-key` and `auth-token`
    /// beside the targeting.
    func httpRequest(userAgent: String, language: String) -> HTTPRequest {
        var extras: [String: String] = [:]
        if let apiKey, !apiKey.isEmpty { extras["api-key"] = apiKey }
        if let authToken, !authToken.isEmpty { extras["auth-token"] = authToken }
        if let id = streamActivityMonitorID, !id.isEmpty { extras["stream_activity_monitor_id"] = id }
        var headers = ["User-Agent": userAgent, "Accept": "application/json", "Accept-Language": language]
        let body: Data
        switch kind {
        case .live:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            let fields = targeting.merging(extras) { _, extra in extra }
            body = Data(Self.formEncoded(fields).utf8)
        case .vod:
            headers["Content-Type"] = "application/json"
            var object: [String: Any] = ["targeting_parameters": targeting]
            for (key, value) in extras { object[key] = value }
            body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        }
        return HTTPRequest(url: url, method: "POST", headers: headers, body: body, timeout: timeout)
    }

    /// `application/x-www-form-urlencoded`, keys sorted so the body is the same every time.
    static func formEncoded(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { "\(percentEncoded($0.key))=\(percentEncoded($0.value))" }
            .joined(separator: "&")
    }

    /// Everything but RFC 3986's unreserved characters percent-encoded,
    /// byte by byte of the UTF-8 (every verification URL goes through
    /// here; Foundation's encoder costs microseconds a call on Linux).
    static func percentEncoded(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func pathSegment(_ text: String) -> String { percentEncoded(text) }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

/// The pod-serving API's answer to a registration (DAI.md §2): the stream
/// ID and where its metadata and verification live.
struct StreamRegistration: Sendable, Hashable {
    var streamID: String
    /// The verification base; an event ID is appended to it.
    var mediaVerificationURL: String
    var metadataURL: URL
    /// Seconds between metadata polls (live).
    var pollingFrequency: TimeInterval
    /// `valid_for` as written (`8h0m0s`).
    var validFor: String?
    /// `valid_until` as written (ISO 8601).
    var validUntil: String?

    /// Seconds between metadata polls when the answer names none, as Google's sample assumes.
    static let defaultPollingFrequency: TimeInterval = 10
    /// Largest registration answer read.
    static let maxResponseSize = 64 * 1024

    /// Reads a registration answer; any problem is 1020
    /// (`streamInitializationFailed`) with the server's own message when it gave one.
    init(response: HTTPResponse, requestURL: URL) throws(AdError) {
        func failed(_ message: String) -> AdError {
            AdError(type: .loadingFailed, code: .streamInitializationFailed, message: message)
        }
        guard (200..<300).contains(response.statusCode) else {
            let detail = Self.serverMessage(in: response.body) ?? "no message"
            throw failed("stream registration failed: HTTP \(response.statusCode): \(detail)")
        }
        guard response.body.count <= Self.maxResponseSize else {
            throw failed("stream registration answer is larger than \(Self.maxResponseSize) bytes")
        }
        guard let object = JSONValue.object(from: response.body) else {
            throw failed("stream registration answer is not a JSON object")
        }
        guard let streamID = object["stream_id"]?.string?.trimmingWhitespace, !streamID.isEmpty else {
            throw failed("stream registration answer has no stream_id")
        }
        guard streamID.count <= 1024, !streamID.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw failed("stream registration answer has an unusable stream_id")
        }
        let base = response.url
        guard let metadata = Self.httpURL(object["metadata_url"], relativeTo: base) else {
            throw failed("stream registration answer has no http(s) metadata_url")
        }
        guard let verification = Self.httpURL(object["media_verification_url"], relativeTo: base) else {
            throw failed("stream registration answer has no http(s) media_verification_url")
        }
        self.streamID = streamID
        metadataURL = metadata
        mediaVerificationURL = verification.absoluteString
        pollingFrequency = Self.pollingFrequency(object["polling_frequency"])
        validFor = object["valid_for"]?.string
        validUntil = object["valid_until"]?.string
    }

    /// An absolute http(s) URL from a JSON string, relative ones resolved against `base`.
    static func httpURL(_ value: JSONValue?, relativeTo base: URL) -> URL? {
        guard let text = value?.string?.trimmingWhitespace, !text.isEmpty,
            let url = URL(string: text, relativeTo: base)?.absoluteURL, url.isHTTPOrHTTPS, url.host != nil
        else { return nil }
        return url
    }

    /// `polling_frequency` in seconds, kept between 1 s and an hour; the default when absent or unusable.
    static func pollingFrequency(_ value: JSONValue?) -> TimeInterval {
        guard let seconds = value?.number, seconds.isFinite, seconds > 0 else { return defaultPollingFrequency }
        return min(max(seconds, 1), 3600)
    }

    /// What a failed answer says about itself: `{"error":{"message":…}}`,
    /// `{"message":…}`, `{"error":"…"}` or plain text (shortened).
    static func serverMessage(in body: Data) -> String? {
        if let object = JSONValue.object(from: body) {
            if let message = object["error"]?.object?["message"]?.string { return message }
            if let message = object["message"]?.string { return message }
            if let message = object["error"]?.string { return message }
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }
}
