import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

@Suite("Stream registration")
@MainActor
struct StreamRegistrationTests {
    func loadError(_ harness: StreamHarness, _ request: StreamRequest) async -> AdError? {
        do throws(AdError) {
            _ = try await harness.loader.loadStream(with: request)
            return nil
        } catch {
            return error
        }
    }

    @Test func requestsMissingWhatTheyNeedFailWith1101BeforeAnythingIsSent() async {
        let harness = StreamHarness.live()
        let noNetwork = PodStreamRequest(
            networkCode: "  ", customAssetKey: "k",
            adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display),
            videoDisplay: harness.display)
        noNetwork.serverURL = URL(string: StreamFixtures.server)
        let noAsset = PodStreamRequest(
            networkCode: "1", customAssetKey: "", adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display),
            videoDisplay: harness.display)
        noAsset.serverURL = URL(string: StreamFixtures.server)
        let noServer = harness.request(live: false)
        noServer.serverURL = nil
        let ftpServer = harness.request(live: true)
        ftpServer.serverURL = URL(string: "ftp://127.0.0.1/")
        let badTimeout = harness.request(live: true)
        badTimeout.registrationTimeout = .nan
        for request in [noNetwork, noAsset, noServer, ftpServer, badTimeout] {
            let error = await loadError(harness, request)
            #expect(error?.code == .invalidArguments)
            #expect(error?.type == .loadingFailed)
        }
        #expect(harness.http.requests.isEmpty)
    }

    @Test func liveRegistrationPostsAFormBodyWithTargetingKeyAndToken() async throws {
        let harness = StreamHarness.live()
        let request = harness.request(live: true)
        request.apiKey = "the-key"
        request.authToken = "custom_asset_key=interlude-live~exp=99~network_code=21775744923~hmac=ab12"
        request.adTagParameters = ["cust_params": "section=sports&page=golf,tennis"]
        let data = try await harness.loader.loadStream(with: request)
        let manager = try #require(data.streamManager)
        #expect(data.adsManager == nil)
        #expect(manager.streamId == StreamFixtures.streamID)
        #expect(manager.isLive)
        #expect(manager.cuepoints.isEmpty)
        let sent = try #require(harness.http.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.url.absoluteString == StreamFixtures.liveRegistrationURL)
        #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
        // Sorted keys, every reserved character percent-encoded (application/x-www-form-urlencoded).
        #expect(
            String(decoding: sent.body ?? Data(), as: UTF8.self)
                == "api-key=the-key&auth-token=custom_asset_key%3Dinterlude-live~exp%3D99~network_code%3D21775744923~hmac%3Dab12"
                + "&cust_params=section%3Dsports%26page%3Dgolf%2Ctennis")
    }

    @Test func vodRegistrationPostsJSONTargetingParameters() async throws {
        let harness = StreamHarness.vod()
        let request = harness.request(live: false)
        request.apiKey = "k"
        request.adTagParameters = ["cust_params": "a=b"]
        request.contentURL = URL(string: "https://publisher.example/film")
        request.streamActivityMonitorID = "sam-1"
        _ = try await harness.loader.loadStream(with: request)
        let sent = try #require(harness.http.requests.first)
        #expect(sent.url.absoluteString == StreamFixtures.vodRegistrationURL)
        #expect(sent.headers["Content-Type"] == "application/json")
        let body = try #require(JSONValue.object(from: sent.body ?? Data()))
        #expect(
            body == [
                "targeting_parameters": .object([
                    "cust_params": .string("a=b"), "url": .string("https://publisher.example/film"),
                ]),
                "api-key": .string("k"), "stream_activity_monitor_id": .string("sam-1"),
            ])
    }

    @Test func pathSegmentsArePercentEncodedAndABasePathIsKept() async throws {
        let harness = StreamHarness(routes: [:])
        let request = PodStreamRequest(
            networkCode: "12/34", customAssetKey: "a b?c",
            adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display),
            videoDisplay: harness.display)
        request.serverURL = URL(string: "http://127.0.0.1:9/prefix/")
        _ = await loadError(harness, request)
        #expect(
            harness.http.requestedURLs == [
                "http://127.0.0.1:9/prefix/ssai/pods/api/v1/network/12%2F34/custom_asset/a%20b%3Fc/stream"
            ])
    }

    @Test func aFailedRegistrationIs1020WithTheServersMessage() async {
        let harness = StreamHarness(routes: [
            StreamFixtures.liveRegistrationURL: .status(
                400, #"{"error":{"message":"unknown custom asset key 'interlude-live'","status":400}}"#)
        ])
        let error = await loadError(harness, harness.request(live: true))
        #expect(error?.code == .streamInitializationFailed)
        #expect(error?.message?.contains("unknown custom asset key 'interlude-live'") == true)
        #expect(error?.message?.contains("400") == true)
    }

    @Test func aRegistrationThatNeverAnswersIs301AfterTheTimeout() async {
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .hang])
        let request = harness.request(live: true)
        request.registrationTimeout = 5
        let loader = harness.loader
        let task = Task { () -> AdError? in
            do throws(AdError) {
                _ = try await loader.loadStream(with: request)
                return nil
            } catch {
                return error
            }
        }
        await harness.clock.simulate(for: 4.9)
        await harness.clock.simulate(for: 0.2)
        let error = await task.value
        #expect(error?.code == .vastLoadTimeout)
    }

    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"[{"stream_id":"x"}]"#, "not a JSON object"),
        (#"{"media_verification_url":"http://a/","metadata_url":"http://a/m"}"#, "no stream_id"),
        (#"{"stream_id":"","media_verification_url":"http://a/","metadata_url":"http://a/m"}"#, "no stream_id"),
        (#"{"stream_id":7,"media_verification_url":"http://a/","metadata_url":"http://a/m"}"#, "no stream_id"),
        (#"{"stream_id":"s","media_verification_url":"http://a/","metadata_url":"ftp://a/m"}"#, "metadata_url"),
        (
            #"{"stream_id":"s","media_verification_url":"javascript:x","metadata_url":"http://a/m"}"#,
            "media_verification_url"
        ),
        (#"{"stream_id":"s\u0000x","media_verification_url":"http://a/","metadata_url":"http://a/m"}"#, "stream_id"),
    ])
    func unusableRegistrationAnswersAre1020(body: String, reason: String) async {
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .body(body)])
        let error = await loadError(harness, harness.request(live: true))
        #expect(error?.code == .streamInitializationFailed)
        #expect(error?.message?.contains(reason) == true)
    }

    @Test func anUnreachableServerIs1020() async {
        let harness = StreamHarness(routes: [
            StreamFixtures.liveRegistrationURL: .failure(.unreachable("connection refused"))
        ])
        let error = await loadError(harness, harness.request(live: true))
        #expect(error?.code == .streamInitializationFailed)
    }

    @Test func relativeURLsInTheAnswerResolveAgainstTheServer() async throws {
        let answer = StreamFixtures.json([
            "stream_id": "s", "media_verification_url": "/verify/", "metadata_url": "meta?x=1",
            "polling_frequency": "2.5",
        ])
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .body(answer)])
        let manager = try #require(try await harness.loader.loadStream(with: harness.request(live: true)).streamManager)
        #expect(manager.registration.mediaVerificationURL == "\(StreamFixtures.server)/verify/")
        #expect(
            manager.registration.metadataURL.absoluteString
                == "\(StreamFixtures.server)/ssai/pods/api/v1/network/21775744923/custom_asset/interlude-live/meta?x=1")
        #expect(manager.registration.pollingFrequency == 2.5)
    }

    @Test func pollingFrequencyDefaultsAndBounds() {
        #expect(StreamRegistration.pollingFrequency(nil) == 10)
        #expect(StreamRegistration.pollingFrequency(.number(-1)) == 10)
        #expect(StreamRegistration.pollingFrequency(.bool(true)) == 10)
        #expect(StreamRegistration.pollingFrequency(.number(0.01)) == 1)
        #expect(StreamRegistration.pollingFrequency(.number(1e9)) == 3600)
    }

    @Test func theDelegateHearsOfTheStreamWithItsUserContext() async throws {
        let harness = StreamHarness.live()
        harness.loader.delegate = harness.recorder
        harness.loader.requestStream(with: harness.request(live: true, userContext: "ctx"))
        await harness.clock.simulate(for: 0.1)
        let data = try #require(harness.recorder.loaded.first)
        #expect(data.userContext as? String == "ctx")
        #expect(data.streamManager?.streamId == StreamFixtures.streamID)
    }

    @Test func theDelegateHearsOfAFailureWithItsUserContextAndTheBackupPlaysWhenAsked() async throws {
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .status(500, "boom")])
        harness.loader.delegate = harness.recorder
        let request = harness.request(live: true, userContext: 7)
        request.backupStreamURL = URL(string: "http://127.0.0.1:9/backup.m3u8")
        request.playsBackupStreamOnFailure = true
        harness.loader.requestStream(with: request)
        await harness.clock.simulate(for: 0.1)
        let failure = try #require(harness.recorder.failed.first)
        #expect(failure.adError.code == .streamInitializationFailed)
        #expect(failure.adError.message?.contains("boom") == true)
        #expect(failure.userContext as? Int == 7)
        #expect(harness.display.commands == ["loadStream http://127.0.0.1:9/backup.m3u8", "play"])
    }

    @Test func withoutBeingAskedTheBackupIsTheAppsToPlay() async {
        let harness = StreamHarness(routes: [StreamFixtures.liveRegistrationURL: .status(500, "")])
        let request = harness.request(live: true)
        request.backupStreamURL = URL(string: "http://127.0.0.1:9/backup.m3u8")
        let error = await loadError(harness, request)
        #expect(error?.message?.contains("no message") == true)
        #expect(harness.display.commands.isEmpty)
    }
}
