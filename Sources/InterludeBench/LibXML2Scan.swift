import CLibXML2

/// The speed reference: a raw libxml2 SAX2 scan that visits every element,
/// attribute and text run and builds nothing.
enum LibXML2Scan {
    final class Counter {
        var elements = 0
        var textBytes = 0
    }

    /// Scans one document; returns false if libxml2 reported an error.
    static func scan(_ bytes: [UInt8], counter: Counter) -> Bool {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, _, _, _, _, _, _, _, _ in
            Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue().elements += 1
        }
        handler.characters = { context, _, length in
            Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue().textBytes += Int(length)
        }
        handler.cdataBlock = { context, _, length in
            Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue().textBytes += Int(length)
        }
        let context = Unmanaged.passUnretained(counter).toOpaque()
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                xmlSAXUserParseMemory(&handler, context, pointer, Int32(buffer.count))
            }
        }
        return status == 0
    }
}
