import Foundation
import InterludeVAST

/// Turns an ad tag (or an inline response) into ready-to-play ads by
/// following wrappers, with per-hop timeouts, a redirect limit and loop
/// detection. Network and time are injected; the result, including the
/// error pings owed, is a value, so every rule is tested without sockets.
struct WrapperResolver: Sendable {
    var http: any HTTPClient
    var clock: any AdClock
    var settings: Settings
    var logger: any AdLogger = SilentLogger()
    /// Fills the macros of tag URLs (wrappers' `VASTAdTagURI`, VMAP break
    /// tags) before they are fetched: every value ``AdRequestContext`` knows,
    /// `[CACHEBUSTING]` and `[TIMESTAMP]`.
    var macros = VASTMacroFiller()

    /// Loads `tagURL` (first hop allowed `timeout` seconds) and resolves it;
    /// `request` fills the wrappers' tag macros and sets the `AdSource` rules.
    func resolve(tagURL: URL, timeout: TimeInterval, request: AdRequestContext = AdRequestContext()) async
        -> AdResolution
    {
        let context = ResolutionContext(request: request)
        do {
            let (document, url) = try await fetchDocument(tagURL, depth: 0, timeout: timeout, context)
            return await resolveRoot(document, documentURL: url, context)
        } catch {
            return context.result(failing: error)
        }
    }

    /// Resolves a response the app already has (`AdsRequest(adsResponse:)`).
    func resolve(response: Data, baseURL: URL? = nil, request: AdRequestContext = AdRequestContext()) async
        -> AdResolution
    {
        let context = ResolutionContext(request: request)
        do {
            let document = try parse(response, depth: 0)
            return await resolveRoot(document, documentURL: baseURL, context)
        } catch {
            return context.result(failing: error)
        }
    }

    /// Resolves a VAST document embedded in a VMAP break (`VASTAdData`).
    func resolve(vast: VASTDocument, documentURL: URL?, request: AdRequestContext = AdRequestContext()) async
        -> AdResolution
    {
        await resolveRoot(.vast(vast), documentURL: documentURL, ResolutionContext(request: request))
    }

    /// A tag URL with every macro of `request` filled, resolved against `base`;
    /// `blocked` fills `[BLOCKEDADCATEGORIES]` (a wrapper chain's blocks).
    func tagURL(
        _ template: VASTURLTemplate, relativeTo base: URL?, request: AdRequestContext, adCount: Int,
        blocked: BlockedAdCategories? = nil
    ) -> URL? {
        var values = request.values(adCount: adCount, settings: settings)
        if let blocked, !blocked.isEmpty { values[.blockedAdCategories] = blocked.macroValue }
        return URL.lenient(macros.fill(template, with: values), relativeTo: base)
    }

    private func resolveRoot(_ document: AdDocument, documentURL: URL?, _ context: ResolutionContext) async
        -> AdResolution
    {
        switch document {
        case .vmap(let vmap):
            return AdResolution(hops: context.hops, vmap: vmap)
        case .vast(let vast):
            let visited: Set<String> = documentURL.map { [$0.absoluteString] } ?? []
            let outcome = await resolveDocument(
                vast, documentURL: documentURL, chain: [], visited: visited,
                allowMultipleAds: context.request.allowMultipleAds, followWrappers: context.request.followRedirects,
                context)
            return context.result(outcome)
        }
    }

    // MARK: - Documents and ads

    /// Chooses and resolves the ads of one document: the pod in sequence
    /// order (a failed pod ad replaced by the next buffet ad), or, when only
    /// one ad is wanted, the first buffet ad that resolves.
    private func resolveDocument(
        _ vast: VASTDocument, documentURL: URL?, chain: [WrapperHop], visited: Set<String>, allowMultipleAds: Bool,
        followWrappers: Bool, _ context: ResolutionContext
    ) async -> Result<[ResolvedAd], AdError> {
        guard !vast.ads.isEmpty else {
            context.ping(vast.errors, code: .noAdsAfterWrapper)
            let error =
                chain.isEmpty
                ? AdError(type: .loadingFailed, code: .vastEmptyResponse, message: "the VAST response holds no ads")
                : AdError(
                    type: .loadingFailed, code: .vastInvalidURL,
                    message: "no ads after \(chain.count) wrapper(s)")
            context.pingChain(chain, code: .noAdsAfterWrapper)
            return .failure(error)
        }
        var usable = vast.ads
        if !followWrappers {
            usable = usable.filter { $0.wrapper == nil }
            if usable.isEmpty {
                let rule =
                    chain.isEmpty ? "the VMAP AdSource's followRedirects" : "the wrapper's followAdditionalWrappers"
                let error = AdError(
                    type: .loadingFailed, code: .vastInvalidURL,
                    message: "\(rule) is false and the response holds only wrappers")
                context.pingChain(chain, code: .noAdsAfterWrapper)
                return .failure(error)
            }
        }
        let document = VASTDocument(version: vast.version, ads: usable, errors: vast.errors)
        var buffet = document.buffet[...]
        var lastError: AdError?
        if allowMultipleAds, document.isPod {
            var resolved: [ResolvedAd] = []
            for ad in document.pod {
                let position = resolved.count + 1
                let mark = context.errorPings.count
                switch await resolveAd(
                    ad, documentURL: documentURL, chain: chain, visited: visited, adCount: position, context)
                {
                case .success(let ads):
                    resolved += ads
                case .failure(let error):
                    lastError = error
                    guard ad.wrapper?.fallbackOnNoAd != false else { continue }
                    while let candidate = buffet.popFirst() {
                        let winner = context.errorPings.count
                        let fallback = await resolveAd(
                            candidate, documentURL: documentURL, chain: chain, visited: visited, adCount: position,
                            context)
                        if case .success(let ads) = fallback {
                            context.withdrawAncestorPings(from: mark, before: winner, depth: chain.count)
                            resolved += ads
                            break
                        }
                    }
                }
            }
            return resolved.isEmpty ? .failure(lastError ?? noAds(chain)) : .success(resolved)
        }
        // One ad: the buffet in order; a response with only a pod offers its first ad.
        let candidates = buffet.isEmpty ? Array(document.pod.prefix(1)) : Array(buffet)
        let mark = context.errorPings.count
        for candidate in candidates {
            let winner = context.errorPings.count
            switch await resolveAd(
                candidate, documentURL: documentURL, chain: chain, visited: visited, adCount: 1, context)
            {
            case .success(let ads):
                context.withdrawAncestorPings(from: mark, before: winner, depth: chain.count)
                return .success(ads)
            case .failure(let error): lastError = error
            }
        }
        return .failure(lastError ?? noAds(chain))
    }

    private func noAds(_ chain: [WrapperHop]) -> AdError {
        AdError(type: .loadingFailed, code: .vastInvalidURL, message: "no playable ad after \(chain.count) wrapper(s)")
    }

    /// Resolves one ad, the `adCount`-th of its break (`[ADCOUNT]` in a wrapper's tag).
    private func resolveAd(
        _ ad: InterludeVAST.Ad, documentURL: URL?, chain: [WrapperHop], visited: Set<String>, adCount: Int,
        _ context: ResolutionContext
    ) async -> Result<[ResolvedAd], AdError> {
        let wrapper: Wrapper
        switch ad.content {
        case .inLine(let inLine):
            // An inline ad refused: its Error URLs and the chain's hear `code`.
            func refuse(_ code: AdError.Code, _ message: String) -> Result<[ResolvedAd], AdError> {
                let error = AdError(type: .loadingFailed, code: code, message: message)
                context.ping(inLine.errors, code: error.vastErrorCode)
                context.pingChain(chain, code: error.vastErrorCode)
                return .failure(error)
            }
            let hasLinear = inLine.creatives.contains { $0.linear != nil }
            let hasOtherKind = inLine.creatives.contains { $0.nonLinearAds != nil || $0.companionAds != nil }
            if !hasLinear && hasOtherKind {
                // A non-linear (overlay) or companion-only ad cannot fill a linear break.
                return refuse(
                    .vastUnexpectedLinearity,
                    "ad \(ad.id ?? "") has no linear creative: non-linear and companion-only ads are not played")
            }
            if let slots = context.request.companionSlots, let unmet = inLine.unmetCompanionRequirement(slots: slots) {
                return refuse(.vastRequiredCompanionNotDisplayed, "ad \(ad.id ?? "") \(unmet)")
            }
            let blocked = BlockedAdCategories(chain: chain)
            if !blocked.isEmpty, inLine.categories.isEmpty {
                // VAST 4.1 has error 204 for this; the ad still plays (logged),
                // so a tag that names no category does not lose its ad.
                logger.log(
                    .warning,
                    "ad \(ad.id ?? "") names no Category under a wrapper's BlockedAdCategories; played unchecked")
            }
            if !blocked.isEmpty, let category = blocked.violation(in: inLine.categories) {
                return refuse(
                    .vastBlockedAdCategory,
                    "ad \(ad.id ?? "") is in category \(category), which a wrapper's BlockedAdCategories blocks")
            }
            return .success([ResolvedAd(ad: ad, inLine: inLine, wrappers: chain, documentURL: documentURL)])
        case .wrapper(let found):
            wrapper = found
        }
        let chain = chain + [WrapperHop(ad: ad, wrapper: wrapper, documentURL: documentURL)]
        // Every wrapper of the chain hears of the failure, with its code.
        func fail(_ code: AdError.Code, _ message: String) -> Result<[ResolvedAd], AdError> {
            let error = AdError(type: .loadingFailed, code: code, message: message)
            context.pingChain(chain, code: error.vastErrorCode)
            return .failure(error)
        }
        guard chain.count <= settings.maxRedirects else {
            return fail(.vastTooManyRedirects, "more than \(settings.maxRedirects) wrappers (Settings.maxRedirects)")
        }
        guard let template = wrapper.vastAdTagURI else {
            return fail(.vastInvalidURL, "wrapper \(ad.id ?? "") has no VASTAdTagURI")
        }
        guard
            let target = tagURL(
                template, relativeTo: documentURL, request: context.request, adCount: adCount,
                blocked: BlockedAdCategories(chain: chain))
        else {
            return fail(.vastInvalidURL, "wrapper \(ad.id ?? "") has an invalid VASTAdTagURI '\(template)'")
        }
        guard target.isHTTPOrHTTPS else {
            return fail(
                .vastInvalidURL,
                "refused VASTAdTagURI with scheme '\(target.scheme ?? "")': only http and https are fetched")
        }
        guard !visited.contains(target.absoluteString) else {
            return fail(
                .vastTooManyRedirects, "wrapper loop: \(target.absoluteString) was already requested in this chain")
        }
        let document: AdDocument
        let childURL: URL
        do {
            (document, childURL) = try await fetchDocument(
                target, depth: chain.count, timeout: settings.wrapperLoadTimeout, context)
        } catch {
            return fail(error.code, error.message ?? error.description)
        }
        guard case .vast(let child) = document else {
            return fail(.vastMalformedResponse, "wrapper target \(target.absoluteString) is a VMAP document, not VAST")
        }
        return await resolveDocument(
            child, documentURL: childURL, chain: chain, visited: visited.union([target.absoluteString]),
            // A VMAP AdSource that allows one ad caps the whole chain at one.
            allowMultipleAds: (wrapper.allowMultipleAds ?? false) && context.request.allowMultipleAds,
            followWrappers: wrapper.followAdditionalWrappers ?? true,
            context)
    }

    // MARK: - Fetching

    private func fetchDocument(_ url: URL, depth: Int, timeout: TimeInterval, _ context: ResolutionContext)
        async throws(AdError) -> (AdDocument, URL)
    {
        guard url.isHTTPOrHTTPS else {
            throw AdError(
                type: .loadingFailed, code: .vastInvalidURL,
                message: "refused ad tag with scheme '\(url.scheme ?? "")': only http and https are fetched")
        }
        let request = HTTPRequest(
            url: url, headers: ["User-Agent": settings.userAgent, "Accept-Language": settings.language],
            timeout: timeout)
        let started = clock.now
        let response: HTTPResponse
        do {
            response = try await http.send(request, deadlineOn: clock)
        } catch {
            let reason: String
            switch error as? HTTPClientError {
            case .timedOut?: reason = "no answer within \(formatSeconds(timeout)) s"
            case .cancelled?: reason = "cancelled"
            case .unreachable(let detail)?: reason = "unreachable: \(detail)"
            case .responseTooLarge(let limit)?: reason = "response larger than \(limit) bytes"
            case .unsupportedScheme(let scheme)?: reason = "redirected to unsupported scheme '\(scheme)'"
            case .tooManyRedirects?: reason = "too many HTTP redirects"
            case nil: reason = String(describing: error)
            }
            context.hops.append(
                LoadHop(
                    url: url, depth: depth, duration: clock.now - started, statusCode: nil, bytes: 0, failure: reason))
            throw AdError(type: .loadingFailed, code: .vastLoadTimeout, message: "\(url.absoluteString): \(reason)")
        }
        let duration = clock.now - started
        let redirectedTo = response.url == url ? nil : response.url
        guard (200..<300).contains(response.statusCode) else {
            let reason = "HTTP \(response.statusCode)"
            context.hops.append(
                LoadHop(
                    url: url, depth: depth, duration: duration, statusCode: response.statusCode,
                    bytes: response.body.count, failure: reason, redirectedTo: redirectedTo))
            throw AdError(type: .loadingFailed, code: .vastLoadTimeout, message: "\(url.absoluteString): \(reason)")
        }
        context.hops.append(
            LoadHop(
                url: url, depth: depth, duration: duration, statusCode: response.statusCode,
                bytes: response.body.count, failure: nil, redirectedTo: redirectedTo))
        return (try parse(response.body, depth: depth), response.url)
    }

    private func parse(_ body: Data, depth: Int) throws(AdError) -> AdDocument {
        guard body.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw AdError(
                type: .loadingFailed, code: depth == 0 ? .vastEmptyResponse : .vastInvalidURL,
                message: "the response body is empty")
        }
        // The parser enforces the size limit (code 100), as it does for every document.
        do {
            let parser = VASTParser(options: .init(maxDocumentSize: settings.maxResponseSize))
            return try parser.parse(body).document
        } catch {
            throw AdError(parsing: error)
        }
    }
}

/// Mutable state of one resolution: pings owed and hops made. Used by one
/// task at a time (the resolution's own), never shared.
final class ResolutionContext {
    let request: AdRequestContext
    private(set) var errorPings: [ErrorPing] = []
    var hops: [LoadHop] = []

    init(request: AdRequestContext) { self.request = request }

    /// Owes each Error URL one ping per code per resolution: a wrapper met
    /// twice on a looping chain is told once. These are the failing ad's
    /// or wrapper's own: never withdrawn.
    func ping(_ urls: [VASTURLTemplate], code: VASTErrorCode) {
        for url in urls { owe(ErrorPing(url: url, code: code), toAncestorAt: nil) }
    }

    /// Every wrapper of `chain` hears `code`, each as the ancestor at its depth.
    func pingChain(_ chain: [WrapperHop], code: VASTErrorCode) {
        for (depth, hop) in chain.enumerated() {
            for url in hop.wrapper.errors { owe(ErrorPing(url: url, code: code), toAncestorAt: depth) }
        }
    }

    /// For each of ``errorPings``: the chain depth of the wrapper it is owed
    /// to as an ancestor of what failed, nil when owed to what failed itself.
    private var ancestorDepths: [Int?] = []

    private func owe(_ ping: ErrorPing, toAncestorAt depth: Int?) {
        guard let index = errorPings.firstIndex(of: ping) else {
            errorPings.append(ping)
            ancestorDepths.append(depth)
            return
        }
        // One URL owed twice (an ad server writes the same Error URL at two
        // hops): it stays owed to the one nearest the failure.
        if let known = ancestorDepths[index] { ancestorDepths[index] = depth.map { max($0, known) } }
    }

    /// Candidates of a document under the `depth` wrappers above it failed
    /// from `mark` on, then the one resolved from `winner` on delivered: the
    /// pings those wrappers were owed as ancestors of the failed ones are
    /// withdrawn (they delivered an ad after all). What the failed
    /// candidates were owed themselves stays, and so does all the winner's.
    func withdrawAncestorPings(from mark: Int, before winner: Int, depth: Int) {
        guard depth > 0, mark < winner else { return }
        let withdrawn = (mark..<winner).filter { ancestorDepths[$0].map { $0 < depth } ?? false }
        for index in withdrawn.reversed() {
            errorPings.remove(at: index)
            ancestorDepths.remove(at: index)
        }
    }

    func result(_ outcome: Result<[ResolvedAd], AdError>) -> AdResolution {
        switch outcome {
        case .success(let ads): return AdResolution(ads: ads, errorPings: errorPings, hops: hops)
        case .failure(let error): return result(failing: error)
        }
    }

    func result(failing error: AdError) -> AdResolution {
        AdResolution(error: error, errorPings: errorPings, hops: hops)
    }
}
