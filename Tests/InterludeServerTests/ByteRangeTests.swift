import Testing

@testable import InterludeServer

@Suite struct ByteRangeTests {
    @Test func closedRangeIsPartial() {
        #expect(ByteRange.evaluate("bytes=0-99", size: 1000) == .partial(first: 0, last: 99))
    }

    @Test func openEndedRangeRunsToTheLastByte() {
        #expect(ByteRange.evaluate("bytes=900-", size: 1000) == .partial(first: 900, last: 999))
    }

    @Test func suffixRangeTakesTheLastBytes() {
        #expect(ByteRange.evaluate("bytes=-100", size: 1000) == .partial(first: 900, last: 999))
        #expect(ByteRange.evaluate("bytes=-5000", size: 1000) == .partial(first: 0, last: 999))
    }

    @Test func endPastTheFileIsClampedToTheLastByte() {
        #expect(ByteRange.evaluate("bytes=10-5000", size: 1000) == .partial(first: 10, last: 999))
    }

    @Test func startPastTheEndIsUnsatisfiable() {
        #expect(ByteRange.evaluate("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(ByteRange.evaluate("bytes=-0", size: 1000) == .unsatisfiable)
    }

    @Test func missingMultiOrMalformedRangesServeTheWholeFile() {
        #expect(ByteRange.evaluate(nil, size: 10) == .whole)
        #expect(ByteRange.evaluate("bytes=0-1,4-5", size: 10) == .whole)
        #expect(ByteRange.evaluate("bytes=a-b", size: 10) == .whole)
        #expect(ByteRange.evaluate("items=0-1", size: 10) == .whole)
        #expect(ByteRange.evaluate("bytes=5-2", size: 10) == .whole)
    }
}
