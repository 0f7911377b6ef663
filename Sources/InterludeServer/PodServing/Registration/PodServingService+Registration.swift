import Foundation

/// The answer to a stream registration, with Google's field names.
struct StreamRegistrationResponse: Encodable, Sendable {
    var streamID: String
    var mediaVerificationURL: String
    var metadataURL: String
    var pollingFrequency: Double
    var validFor: String
    var validUntil: String

    enum CodingKeys: String, CodingKey {
        case streamID = "stream_id"
        case mediaVerificationURL = "media_verification_url"
        case metadataURL = "metadata_url"
        case pollingFrequency = "polling_frequency"
        case validFor = "valid_for"
        case validUntil = "valid_until"
    }
}

extension PodServingService {
    /// Registers a live stream of `customAssetKey` on `networkCode`.
    func registerLive(networkCode: String, customAssetKey: String, request: HTTPRequest) throws(HTTPError) -> PodStream
    {
        let network = try knownNetwork(networkCode)
        guard Catalog.isSafeID(customAssetKey),
            podCatalog.liveStream(customAssetKey: customAssetKey, network: network.code) != nil
        else {
            throw .notFound(
                "no live stream with custom asset key '\(customAssetKey.prefix(64))' on network \(networkCode)")
        }
        let registration = try RegistrationRequest(request: request)
        try authorize(
            registration, network: network,
            tokenFields: ["custom_asset_key": customAssetKey, "network_code": network.code])
        return try register(kind: .live, network: network, customAssetKey: customAssetKey, registration: registration)
    }

    /// Registers a VOD stream on `networkCode` (the VTP knows the content).
    func registerVOD(networkCode: String, request: HTTPRequest) throws(HTTPError) -> PodStream {
        let network = try knownNetwork(networkCode)
        let registration = try RegistrationRequest(request: request)
        try authorize(registration, network: network, tokenFields: ["network_code": network.code])
        return try register(kind: .vod, network: network, customAssetKey: nil, registration: registration)
    }

    func knownNetwork(_ code: String) throws(HTTPError) -> PodNetwork {
        guard Catalog.isSafeID(code), let network = podCatalog.network(code: code) else {
            throw .notFound("no network '\(code.prefix(64))'")
        }
        return network
    }

    /// Checks the API key (when the network has one) and the auth token
    /// (when the network requires one, or one is sent and can be checked).
    func authorize(
        _ registration: RegistrationRequest, network: PodNetwork, tokenFields: [String: String]
    ) throws(HTTPError) {
        if let expected = network.apiKey {
            guard let given = registration.apiKey,
                HMACSHA256.constantTimeEquals(Array(given.utf8), Array(expected.utf8))
            else {
                throw HTTPError(
                    status: 401, message: "network \(network.code) needs its api-key (body or Authorization: DCLKDAI)")
            }
        }
        try checkToken(registration.authToken, network: network, fields: tokenFields)
    }

    /// Verifies `token` against the network's auth key; a missing token is
    /// refused only when the network requires one. `fields` is built only
    /// when there is a token to check (pod playlists call this per request).
    func checkToken(_ token: String?, network: PodNetwork, fields: @autoclosure () -> [String: String])
        throws(HTTPError)
    {
        guard let key = network.authKeyBytes else { return }
        guard let token, !token.isEmpty else {
            guard !network.requiresAuthToken else {
                throw HTTPError(status: 401, message: "network \(network.code) requires an auth-token")
            }
            return
        }
        do {
            try PodAuthToken.verify(token, key: key, now: now(), expected: fields())
        } catch {
            throw HTTPError(status: 401, message: error.message)
        }
    }

    private func register(
        kind: PodStream.Kind, network: PodNetwork, customAssetKey: String?, registration: RegistrationRequest
    ) throws(HTTPError) -> PodStream {
        let created = now()
        let stream = PodStream(
            id: PodStream.newID(), kind: kind, networkCode: network.code, customAssetKey: customAssetKey,
            targeting: registration.targeting, createdAt: created,
            expiresAt: created.addingTimeInterval(podCatalog.sessions.validFor))
        try insert(stream)
        return stream
    }

    /// The registration answer for `stream`, its URLs on `baseURL`.
    func registrationResponse(_ stream: PodStream, baseURL: String) -> StreamRegistrationResponse {
        let links = PodServingLinks(baseURL: baseURL)
        return StreamRegistrationResponse(
            streamID: stream.id, mediaVerificationURL: links.mediaVerification(streamID: stream.id),
            metadataURL: links.metadata(streamID: stream.id),
            pollingFrequency: podCatalog.sessions.pollingFrequency,
            validFor: PodTimeFormat.goDuration(stream.expiresAt.timeIntervalSince(stream.createdAt)),
            validUntil: PodTimeFormat.iso8601(stream.expiresAt))
    }
}
