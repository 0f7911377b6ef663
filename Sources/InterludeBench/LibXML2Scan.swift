import CXMLScan

/// The speed reference: a raw libxml2 SAX2 scan that visits every element
/// and text run and builds nothing (see `Sources/CXMLScan`).
enum LibXML2Scan {
    final class Counter {
        var elements = 0
        var textBytes = 0
    }

    /// Scans one document; returns false if libxml2 reported an error.
    static func scan(_ bytes: [UInt8], counter: Counter) -> Bool {
        var elements = 0
        var textBytes = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            interlude_xml_sax_scan(buffer.baseAddress, buffer.count, &elements, &textBytes)
        }
        counter.elements += elements
        counter.textBytes += textBytes
        return status == 0
    }
}
