import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Real media of ``Catalog/podServingTest`` made once with ffmpeg, checked
/// with ffprobe and ffmpeg against what the ladder promises. Skipped when
/// ffmpeg is not installed.
@Suite(.enabled(if: FFmpegTool.available, Comment(rawValue: FFmpegTool.skipMessage)))
struct StreamMediaTests {
    struct Built: Sendable {
        var directory: TemporaryDirectory
        var plan: MediaPlan
        var library: MediaLibrary
        var firstBuild: MediaBuildReport
    }

    /// Built once for the whole suite (a static let runs once, whichever test gets there first).
    static let built: Result<Built, MediaError> = {
        let directory = TemporaryDirectory(prefix: "interlude-stream-media")
        let catalog = Catalog.podServingTest
        let plan = MediaPlan(catalog: catalog, dataDirectory: directory.url, fontFile: MediaGenerator.findFont())
        do throws(MediaError) {
            // Niced: the suite runs beside tests that time their own timeouts.
            var builder = try MediaBuilder.system(dataDirectory: directory.url)
            builder.niceness = 15
            let report = try builder.build(plan)
            let library = MediaLibrary(catalog: catalog, plan: plan, dataDirectory: directory.url)
            return .success(Built(directory: directory, plan: plan, library: library, firstBuild: report))
        } catch {
            return .failure(error)
        }
    }()

    /// The build, waited for on a thread of its own (it takes a minute of ffmpeg).
    static let building = Task { try await onOwnThread { try built.get() } }

    func media() async throws -> Built { try await Self.building.value }

    /// Every rendition of every kind, with its label.
    func renditions(_ built: Built) -> [(label: String, profile: EncodingProfile, segments: [SegmentFile])] {
        let library = built.library
        var result: [(String, EncodingProfile, [SegmentFile])] = []
        for profile in library.profiles {
            for id in ["test-ad-3s", "test-ad-5s", "test-ad-8s"] {
                result.append(("ad \(id)", profile, library.ad(id)?.renditions[profile.id] ?? []))
            }
            result.append(("title", profile, library.vodTitle("test-film")?.renditions[profile.id] ?? []))
            result.append(("live", profile, library.liveChannel("test-live")?.source[profile.id] ?? []))
            result.append(("slate", profile, library.slate(profile: profile.id, duration: 3.5)))
        }
        return result
    }

    @Test func everythingIsMadeAndTheLibraryIsComplete() async throws {
        let built = try await media()
        #expect(built.library.isComplete)
        #expect(built.firstBuild.made == built.plan.renditions.count + built.plan.mediaSpecs.count)
        for (label, profile, segments) in renditions(built) {
            #expect(!segments.isEmpty, "\(label) \(profile.id) has no segments")
        }
    }

    @Test func conditionedAdsHaveTheContentRenditionsFormat() async throws {
        let built = try await media()
        for profile in built.library.profiles {
            let content = try #require(built.library.vodTitle("test-film")?.renditions[profile.id]?.first)
            let reference = try FFmpegTool.probe(built.library.fileURL(for: content))
            for id in ["test-ad-3s", "test-ad-5s", "test-ad-8s"] {
                let segment = try #require(built.library.ad(id)?.renditions[profile.id]?.first)
                let probe = try FFmpegTool.probe(built.library.fileURL(for: segment))
                let video = try #require(probe.stream("video"))
                let audio = try #require(probe.stream("audio"))
                let contentVideo = try #require(reference.stream("video"))
                let contentAudio = try #require(reference.stream("audio"))
                // What the ladder promises (H.264 Main 3.1, the profile's size, 30 fps, AAC-LC 48 kHz stereo)…
                #expect(video.codecName == "h264")
                #expect(video.profile == "Main")
                #expect(video.level == 31)
                #expect(video.width == profile.width)
                #expect(video.height == profile.height)
                #expect(video.rFrameRate == "30/1")
                #expect(audio.codecName == "aac")
                #expect(audio.profile == "LC")
                #expect(audio.sampleRate == "48000")
                #expect(audio.channels == 2)
                #expect(audio.channelLayout == "stereo")
                // … and exactly what the content rendition has.
                for (ad, film) in [
                    (video.codecName, contentVideo.codecName), (video.profile, contentVideo.profile),
                    (video.rFrameRate, contentVideo.rFrameRate), (audio.sampleRate, contentAudio.sampleRate),
                    (audio.channelLayout, contentAudio.channelLayout), (audio.profile, contentAudio.profile),
                ] {
                    #expect(ad == film)
                }
                #expect(video.level == contentVideo.level)
                #expect(video.width == contentVideo.width && video.height == contentVideo.height)
            }
        }
    }

    @Test func conditionedSegmentsDeclareTheTimedID3Stream() async throws {
        let built = try await media()
        for profile in built.library.profiles {
            var segments = built.library.slate(profile: profile.id, duration: 2.5)
            for id in ["test-ad-3s", "test-ad-5s", "test-ad-8s"] {
                segments += built.library.ad(id)?.renditions[profile.id] ?? []
            }
            for segment in segments {
                let bytes = [UInt8](try Data(contentsOf: built.library.fileURL(for: segment)))
                let summary = try TSSegmentSummary(segment: bytes)
                let id3 = try #require(summary.programMap.id3Stream, "\(segment.path) declares no timed-ID3 stream")
                // Apple's "Timed Metadata for HTTP Live Streaming": stream_type 0x15 with a
                // metadata_descriptor whose format identifier is 'ID3 ', on our PID 0x0102.
                #expect(id3.streamType.rawValue == 0x15)
                #expect(id3.pid == 0x0102)
                #expect(id3.descriptors.contains { $0.formatIdentifier == 0x4944_3320 })
                #expect(summary.streams.map(\.pid).sorted() == [0x0100, 0x0101, 0x0102])
                #expect(summary.firstVideoPTS == segment.firstPTS)
                #expect(bytes.count == segment.byteCount)
                let probe = try FFmpegTool.probe(built.library.fileURL(for: segment))
                #expect(
                    probe.streams.contains { $0.codecName == "timed_id3" },
                    "ffprobe sees no timed_id3 in \(segment.path)")
            }
        }
        // Content is not stitched per viewer: its PMT stays as ffmpeg wrote it.
        let film = try #require(built.library.vodTitle("test-film")?.renditions["360p"]?.first)
        let summary = try TSSegmentSummary(segment: [UInt8](try Data(contentsOf: built.library.fileURL(for: film))))
        #expect(summary.programMap.id3Stream == nil)
    }

    @Test func everyRenditionDecodesWithoutError() async throws {
        let built = try await media()
        for (label, profile, segments) in renditions(built) {
            let errors = FFmpegTool.decodeErrors(segments.map(built.library.fileURL(for:)))
            #expect(errors.isEmpty, "\(label) \(profile.id): \(errors)")
        }
    }

    @Test func theMultivariantStatesWhatFFprobeReads() async throws {
        let built = try await media()
        let title = try #require(built.library.vodTitle("test-film"))
        let channel = try #require(built.library.liveChannel("test-live"))
        for (multivariant, renditions) in [
            (title.multivariantPlaylist, title.renditions), (channel.multivariantPlaylist, channel.source),
        ] {
            for variant in multivariant.variants {
                let profileID = try #require(variant.uri.split(separator: "/").last?.split(separator: ".").first)
                let segments = try #require(renditions[String(profileID)])
                let probe = try FFmpegTool.probe(built.library.fileURL(for: segments[0]))
                let video = try #require(probe.stream("video"))
                #expect(variant.resolution == HLSResolution(width: video.width ?? 0, height: video.height ?? 0))
                let rate = try #require(video.rFrameRate?.split(separator: "/").compactMap { Double($0) })
                #expect(variant.frameRate == rate[0] / rate[1])
                // avc1.4d401f is profile_idc 77 (Main) and level_idc 31 (RFC 6381 §3.3).
                #expect(variant.codecs == "avc1.4d401f,mp4a.40.2")
                #expect(video.profile == "Main" && video.level == 31)
                #expect(probe.stream("audio")?.profile == "LC")
                // AVERAGE-BANDWIDTH: the files' bytes over ffprobe's durations.
                var bytes = 0
                var seconds = 0.0
                for segment in segments {
                    let url = built.library.fileURL(for: segment)
                    bytes += try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
                    seconds += Double(try FFmpegTool.probe(url).format?.duration ?? "0") ?? 0
                }
                let average = Double(bytes * 8) / seconds
                let stated = Double(try #require(variant.averageBandwidth))
                #expect(abs(stated - average) / average < 0.03, "AVERAGE-BANDWIDTH \(stated) vs \(average)")
                #expect(try #require(variant.bandwidth) >= UInt64(stated))
            }
        }
    }

    @Test func segmentsStartAtTheirStatedPTSAndAreOneGOPEach() async throws {
        let built = try await media()
        let segments = try #require(built.library.vodTitle("test-film")?.renditions["360p"])
        for segment in segments {
            let probe = try FFmpegTool.probe(built.library.fileURL(for: segment), countFrames: true)
            let video = try #require(probe.stream("video"))
            let start = try #require(Double(video.startTime ?? ""))
            #expect(abs(start - Double(segment.firstPTS) / 90_000) < 0.001)
            #expect(Int(video.nbReadFrames ?? "") == Int((segment.duration * 30).rounded()))
        }
        #expect(segments.map(\.duration) == [4, 4, 4, 4, 4, 4, 4, 2])
    }

    @Test func slateTailsHoldTheirFramesAndTheRunIsContinuous() async throws {
        let built = try await media()
        for duration in [0.1, 1.5, 2.967, 7.0] {
            let segments = built.library.slate(profile: "180p", duration: duration)
            let last = try #require(segments.last)
            let probe = try FFmpegTool.probe(built.library.fileURL(for: last), countFrames: true)
            let frames = Double(try #require(Int(probe.stream("video")?.nbReadFrames ?? "")))
            #expect(
                abs(frames / 30 - last.duration) < 1.0 / 30,
                "slate \(duration): \(frames) frames for \(last.duration) s")
        }
        let run = built.library.slate(profile: "360p", duration: 5)
        for index in 1..<run.count { #expect(run[index].continues(after: run[index - 1])) }
    }

    @Test func aSecondBuildMakesNothingAndAServerReusesIt() async throws {
        let built = try await media()
        let builder = try MediaBuilder.system(dataDirectory: built.directory.url)
        let missing = builder.missing(built.plan)
        #expect(missing.specs.isEmpty && missing.renditions.isEmpty)
        let report = try builder.build(built.plan)
        #expect(report.made == 0)
        let server = try AdServer.start(
            .init(
                host: "127.0.0.1", port: 0, dataDirectory: built.directory.url, catalog: .podServingTest,
                generatesMedia: true, http: HTTPServer.Configuration(threadCount: 2),
                buildProgress: { event in Issue.record("a cached start ran ffmpeg: \(event)") }))
        defer { server.shutdown() }
        #expect(server.media.isComplete)
        let segment = try #require(server.media.vodTitle("test-film")?.renditions["360p"]?[1])
        let response = try Loopback.get("/origin/vod/test-film/360p/00001.ts", port: server.port)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "video/mp2t")
        #expect(response.body == [UInt8](try Data(contentsOf: server.media.fileURL(for: segment))))
    }
}
