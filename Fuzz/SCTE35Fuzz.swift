// libFuzzer entry point for the SCTE-35 decoder, compiled into one module
// with the InterludeHLS sources by scripts/fuzz-hls.sh (so no import).
// A section that decodes must encode to bytes that decode to the same value.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let section = try? SpliceInfoSection(bytes: bytes) {
        let encoded = section.encoded()
        guard let decoded = try? SpliceInfoSection(bytes: encoded) else {
            fatalError("encoded section does not decode: \(HLSHex.encode(encoded))")
        }
        if decoded != section {
            fatalError("encoded section decodes differently: \(HLSHex.encode(encoded))")
        }
        _ = section.isCueOut
        _ = section.durationSeconds
    }
    // The same bytes as text: the hex and base64 paths of the playlist tags.
    _ = try? SpliceInfoSection(encoded: String(decoding: bytes, as: UTF8.self))
    return 0
}
