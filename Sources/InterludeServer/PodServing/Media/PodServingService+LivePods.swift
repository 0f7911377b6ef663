import Foundation

/// A live pod request's path and query, checked: which stream, which break,
/// how long.
struct LivePodRequest: Sendable, Hashable {
    var networkCode: String
    var customAssetKey: String
    var identifier: PodIdentifier
    var streamID: String
    /// `pd`, milliseconds.
    var duration: Int
    /// The request's `auth-token`, passed on so that every request of the
    /// pod carries what its network requires.
    var authToken: String? = nil

    /// The query string that goes on to the profile playlists and segments.
    var query: String {
        let base = "stream_id=\(streamID)&pd=\(duration)"
        guard let authToken else { return base }
        return base + "&auth-token="
            + (authToken.addingPercentEncoding(withAllowedCharacters: Self.tokenCharacters) ?? "")
    }

    /// What a token keeps unescaped in a query (RFC 3986 unreserved).
    private static let tokenCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `/linear/pods/v1/seg/…/{pod identifier}/profile/{profile}/`, where segments live.
    func segmentDirectory(profile: String) -> String {
        "/linear/pods/v1/seg/network/\(networkCode)/custom_asset/\(customAssetKey)/\(identifier.pathComponent)"
            + "/profile/\(profile)/"
    }
}

extension PodServingService {
    static let playlistType = "application/vnd.apple.mpegurl"
    static let segmentType = "video/mp2t"

    /// Reads and checks a live pod request; throws 400 for a bad pod
    /// identifier or `pd`, 404 for an unknown stream or one of another asset.
    func livePodRequest(
        network: String, asset: String, kind: String, id: String, request: HTTPRequest
    ) throws(HTTPError) -> (LivePodRequest, PodStream) {
        let networkEntry = try knownNetwork(network)
        guard let identifier = PodIdentifier(kind: kind, value: id) else {
            throw .badRequest(
                "pod identifier must be pod/{0–\(PodIdentifier.maxPodNumber)} or ad_break_id/{1–\(PodIdentifier.maxAdBreakIDLength) of a–z 0–9 -}"
            )
        }
        let maxDuration = podCatalog.podRules.maxPodDuration
        guard let pdText = request.query("pd"), pdText.utf8.count <= 8, let duration = Int(pdText),
            (1000...maxDuration).contains(duration)
        else {
            throw .badRequest("pd must be the pod duration in milliseconds, 1000–\(maxDuration)")
        }
        guard let streamID = request.query("stream_id") else { throw .badRequest("stream_id is missing") }
        let stream = try self.stream(streamID)
        guard stream.kind == .live, stream.networkCode == networkEntry.code, stream.customAssetKey == asset else {
            throw .notFound("stream \(stream.id) is not a live stream of \(network)/\(asset.prefix(64))")
        }
        let token = request.query("auth-token").flatMap { $0.isEmpty ? nil : $0 }
        let pod = LivePodRequest(
            networkCode: networkEntry.code, customAssetKey: asset, identifier: identifier, streamID: stream.id,
            duration: duration, authToken: token)
        // Every request of a pod is checked, not only its multivariant: a
        // profile playlist or segment without the token must not decide a break.
        // Google signs the path's identifier under its own name: `pod_id` for
        // `pod/{n}`, `ad_break_id` for `ad_break_id/{id}`.
        try checkToken(
            token, network: networkEntry,
            fields: [
                "custom_asset_key": asset, "network_code": networkEntry.code,
                kind == "pod" ? "pod_id" : "ad_break_id": id, "pd": String(duration),
            ])
        return (pod, stream)
    }

    /// The decision behind a live pod request (made now on the first one).
    /// A break decided for another `pd` is a 409: every viewer of a break
    /// gets the same pod duration.
    func livePodDecision(_ pod: LivePodRequest, stream: PodStream) throws(HTTPError) -> PodBreakDecision {
        guard !media.profiles.isEmpty else {
            throw HTTPError(
                status: 503, message: "no conditioned media: pods cannot be served (started with --no-media?)")
        }
        let decision = try decision(
            for: stream, breakID: pod.identifier.breakID, requestedDuration: pod.duration,
            slate: liveSlate)
        guard decision.requestedDuration == pod.duration else {
            throw HTTPError(
                status: 409,
                message:
                    "\(pod.identifier.pathComponent) of stream \(stream.id) was decided for pd=\(decision.requestedDuration)"
            )
        }
        return decision
    }

    /// The pod's multivariant playlist (checks the auth token when the network wants one).
    func livePodMultivariant(
        network: String, asset: String, kind: String, file: String, request: HTTPRequest
    ) throws(HTTPError) -> HTTPResponse {
        let id = try Self.stripping(".m3u8", from: file)
        let (pod, stream) = try livePodRequest(network: network, asset: asset, kind: kind, id: id, request: request)
        _ = try livePodDecision(pod, stream: stream)
        // The query, token included, is in the key: the variants carry it.
        let key = "mv\n\(pod.identifier.pathComponent)\n\(pod.query)"
        let body =
            renderedPlaylists[key]
            ?? {
                let text = PodPlaylistWriter.multivariant(profiles: media.profiles) { profile in
                    "\(id)/profile/\(profile.id).m3u8?\(pod.query)"
                }
                let bytes = Array(text.utf8)
                renderedPlaylists.store(bytes, for: key)
                return bytes
            }()
        return Self.playlist(body)
    }

    /// One profile's media playlist of the pod.
    func livePodMediaPlaylist(
        network: String, asset: String, kind: String, id: String, file: String, request: HTTPRequest
    ) throws(HTTPError) -> HTTPResponse {
        let profile = try knownProfile(try Self.stripping(".m3u8", from: file))
        let (pod, stream) = try livePodRequest(network: network, asset: asset, kind: kind, id: id, request: request)
        let key = "media\n\(pod.identifier.pathComponent)\n\(profile)\n\(pod.query)"
        if let cached = renderedPlaylists[key] { return Self.playlist(cached) }
        let layout = try self.layout(try livePodDecision(pod, stream: stream), profile: profile)
        let directory = pod.segmentDirectory(profile: profile)
        let bytes = Array(PodPlaylistWriter.media(layout) { "\(directory)\($0).ts?\(pod.query)" }.utf8)
        renderedPlaylists.store(bytes, for: key)
        return Self.playlist(bytes)
    }

    /// One segment of the pod: the shared media with this viewer's ID3 added.
    func livePodSegment(
        network: String, asset: String, kind: String, id: String, profile: String, file: String, request: HTTPRequest
    ) throws(HTTPError) -> HTTPResponse {
        let number = try Self.segmentNumber(try Self.stripping(".ts", from: file))
        let profile = try knownProfile(profile)
        let (pod, stream) = try livePodRequest(network: network, asset: asset, kind: kind, id: id, request: request)
        let decision = try livePodDecision(pod, stream: stream)
        let layout = try self.layout(decision, profile: profile)
        guard layout.entries.indices.contains(number) else {
            throw .notFound("no segment \(number) in this pod (0–\(layout.entries.count - 1))")
        }
        return try segmentResponse(layout, number: number, events: layout.timedMetadata(of: number, in: decision))
    }

    /// `profile` when the ladder has it; 404 otherwise.
    func knownProfile(_ profile: String) throws(HTTPError) -> String {
        guard media.profiles.contains(where: { $0.id == profile }) else {
            throw .notFound("no profile '\(profile.prefix(64))' (\(media.profiles.map(\.id).joined(separator: ", ")))")
        }
        return profile
    }

    /// A segment number of a path (`12` of `12.ts`); 404 when it is not one.
    static func segmentNumber(_ text: String) throws(HTTPError) -> Int {
        guard text.utf8.count <= 6, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text) else {
            throw .notFound("no segment '\(text.prefix(16))'")
        }
        return number
    }

    /// The layout of `decision` in `profile` (a profile of the ladder).
    func layout(_ decision: PodBreakDecision, profile: String) throws(HTTPError) -> PodLayout {
        let key = "\(decision.streamID)\n\(decision.breakID)\n\(profile)"
        if let cached = layouts[key] { return cached }
        guard let layout = PodLayout(decision: decision, profile: profile, media: media) else {
            throw HTTPError(status: 503, message: "conditioned media for \(decision.breakID) in \(profile) is missing")
        }
        layouts.store(layout, for: key)
        return layout
    }

    /// A segment's bytes: the file as it is when no event falls in it, else
    /// its bytes with the events' ID3 PES packets added.
    func segmentResponse(
        _ layout: PodLayout, number: Int, events: [(pts: UInt64, eventID: String)]
    ) throws(HTTPError) -> HTTPResponse {
        let segment = layout.entries[number].segment
        let headers = HTTPHeaders([("Content-Type", Self.segmentType), ("Cache-Control", "private, max-age=3600")])
        if events.isEmpty {
            let path = media.filePath(of: segment)
            guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber else {
                throw HTTPError(status: 503, message: "segment file \(segment.path) is missing")
            }
            return HTTPResponse(
                status: 200, headers: headers, body: .file(path: path, offset: 0, length: size.uint64Value))
        }
        let tagged: [SharedBytes.Slice]
        do {
            tagged = try media.tagged(segment, with: events)
        } catch {
            throw HTTPError(status: error.isMissing ? 503 : 500, message: error.message)
        }
        return HTTPResponse(status: 200, headers: headers, body: .parts(tagged))
    }

    static func playlist(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", playlistType), ("Cache-Control", "private, max-age=60")]),
            body: .bytes(bytes))
    }

    /// `7` from `7.m3u8`; 404 for another extension.
    static func stripping(_ suffix: String, from file: String) throws(HTTPError) -> String {
        guard file.hasSuffix(suffix), file.utf8.count > suffix.utf8.count else {
            throw .notFound("expected a \(suffix) file, got '\(file.prefix(64))'")
        }
        return String(file.dropLast(suffix.count))
    }
}

extension PodServingService {
    /// How live pods fill with slate, from the catalog's pod rules.
    var liveSlate: PodDecisioner.Slate { podCatalog.podRules.slate == .fill ? .toRequestedDuration : .onlyWhenEmpty }

    /// Decides live pods ahead of the reloads that will ask for them, in one
    /// store transaction: the decisions ``livePodDecision(_:stream:)`` makes
    /// on its own (the decisioner is deterministic, so a break gets the same
    /// pod whoever decides it), for pods not yet decided in this process.
    /// A pod already written (by a reload, or by another server) keeps its
    /// written decision.
    func decideLivePodsAhead(_ requests: [(pod: LivePodRequest, stream: PodStream)]) throws(HTTPError) {
        guard !media.profiles.isEmpty else { return }
        let decidedAt = now()
        var made: [PodBreakDecision] = []
        for (pod, stream) in requests
        where decisions[Self.decisionKey(streamID: stream.id, breakID: pod.identifier.breakID)] == nil {
            made.append(
                decisioner.decide(
                    stream: stream, breakID: pod.identifier.breakID, requestedDuration: pod.duration,
                    slate: liveSlate, at: decidedAt))
        }
        guard !made.isEmpty else { return }
        let stored = try Self.storeCall { () throws(StoreError) in try store.completeDecisions(made, at: decidedAt) }
        for decision in stored {
            decisions.store(
                decision.withoutDocuments(),
                for: Self.decisionKey(streamID: decision.streamID, breakID: decision.breakID))
        }
    }
}
