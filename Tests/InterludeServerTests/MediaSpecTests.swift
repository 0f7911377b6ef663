import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct MediaSpecTests {
    let creative = CatalogCreative(
        id: "tiny", title: "Tiny Ad", advertiser: "T", duration: 1, clickThrough: "https://example.com")
    let rendition = Rendition(width: 160, height: 90, bitrate: 200)

    @Test func hashIsStableForTheSameParameters() {
        #expect(
            MediaSpec(creative: creative, rendition: rendition).contentHash
                == MediaSpec(creative: creative, rendition: rendition).contentHash)
    }

    @Test func hashChangesWithAnyParameter() {
        var other = creative
        other.title = "Other"
        let base = MediaSpec(creative: creative, rendition: rendition)
        #expect(MediaSpec(creative: other, rendition: rendition).contentHash != base.contentHash)
        #expect(
            MediaSpec(creative: creative, rendition: Rendition(width: 160, height: 90, bitrate: 300)).contentHash
                != base.contentHash)
    }

    @Test func fileNameNamesCreativeHeightAndHash() {
        let spec = MediaSpec(creative: creative, rendition: rendition)
        #expect(spec.fileName == "tiny-90p-\(spec.contentHash.prefix(12)).mp4")
    }

    @Test func ffmpegArgumentsDrawTitleOnTestPatternWithTone() {
        let spec = MediaSpec(creative: creative, rendition: rendition)
        let arguments = MediaGenerator.arguments(for: spec, output: "/o.mp4", fontFile: "/f.ttf", titleFile: "/t.txt")
        let line = arguments.joined(separator: " ")
        #expect(line.contains("testsrc2=size=160x90:rate=30:duration=1"))
        #expect(line.contains("sine=frequency="))
        #expect(line.contains("drawtext=fontfile='/f.ttf':textfile='/t.txt'"))
        #expect(line.contains("-c:v libx264") && line.contains("-c:a aac"))
        #expect(arguments.last == "/o.mp4")
    }

    @Test func ffmpegArgumentsWithoutFontDrawNoText() {
        let spec = MediaSpec(creative: creative, rendition: rendition)
        let line = MediaGenerator.arguments(for: spec, output: "/o.mp4", fontFile: nil, titleFile: nil).joined(
            separator: " ")
        #expect(!line.contains("drawtext"))
    }

    @Test(.enabled(if: MediaGenerator.findExecutable("ffmpeg") != nil))
    func generatorMakesAPlayableMP4OnceThenReusesIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = try MediaGenerator.system(mediaDirectory: directory.url)
        let spec = MediaSpec(creative: creative, rendition: rendition)
        #expect(try generator.generate([spec]) == 1)
        let bytes = try Data(contentsOf: directory.url.appendingPathComponent(spec.fileName))
        // An MP4 starts with an `ftyp` box.
        #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
        #expect(try generator.generate([spec]) == 0)
        #expect(generator.missing([spec]).isEmpty)
    }
}
