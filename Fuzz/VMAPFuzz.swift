import InterludeVAST

/// libFuzzer entry point for VMAP: the input is wrapped into a VMAP ad break
/// (as AdBreak attributes and children) so the fuzzer spends its time in the
/// VMAP reader, not in rediscovering the root element.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVMAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let wrapped =
        Array("<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">".utf8) + input
        + Array("</vmap:VMAP>".utf8)
    for bytes in [input, wrapped] {
        guard let result = try? VASTParser().parse(bytes: bytes) else { continue }
        if case .vmap(let vmap) = result.document {
            for adBreak in vmap.adBreaks { _ = adBreak.timeOffset.seconds(contentDuration: 600) }
        }
        let rewritten = VASTWriter().write(result.document)
        _ = try? VASTParser().parse(bytes: Array(rewritten.utf8))
    }
    return 0
}
