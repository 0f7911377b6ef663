import InterludeVAST

/// libFuzzer entry point: any bytes through the VAST/VMAP parser must yield a
/// document or a `VASTError`, never a crash; a parsed document must survive a
/// write and a re-parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVAST(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for mode in [VASTParser.Mode.lenient, .strict] {
        guard let result = try? VASTParser(options: .init(mode: mode)).parse(bytes: bytes) else { continue }
        let rewritten = VASTWriter().write(result.document)
        _ = try? VASTParser().parse(bytes: Array(rewritten.utf8))
        if case .vast(let vast) = result.document {
            for ad in vast.ads {
                _ = ad.uiHideable
                _ = VASTMacroFiller().fill(ad.inLine?.impressions.first?.url ?? "", with: [.errorCode: "303"])
            }
        }
    }
    return 0
}
