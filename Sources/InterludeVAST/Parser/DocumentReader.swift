/// Maps an ``XMLTree`` onto the VAST/VMAP model, collecting diagnostics.
///
/// One pass over each element's children with a `switch` on the local name:
/// no repeated child lookups, no XPath-like queries.
struct DocumentReader {
    let tree: XMLTree
    let mode: VASTParser.Mode
    var diagnostics: [VASTDiagnostic] = []
    /// Where each located diagnostic's element starts (index into
    /// ``diagnostics``, byte offset): lines and columns are filled in one
    /// pass at the end, not by a scan from the start per finding.
    private var pendingLocations: [(diagnostic: Int, offset: Int)] = []

    init(tree: XMLTree, mode: VASTParser.Mode) {
        self.tree = tree
        self.mode = mode
    }

    mutating func readDocument() throws(VASTError) -> AdDocument {
        let root = tree.root
        let document: AdDocument
        switch tree.elements[root].name {
        case "VAST":
            document = .vast(try readVASTRoot(root))
        case "VMAP":
            document = .vmap(try readVMAPRoot(root))
        case "VideoAdServingTemplate":
            throw error(
                .unsupportedVersion, "VAST 1.0 documents (<VideoAdServingTemplate>) are not supported", at: root)
        case let name:
            throw error(.unsupportedVersion, "root element <\(name)> is neither VAST nor VMAP", at: root)
        }
        resolveLocations()
        if mode == .strict, let first = diagnostics.first(where: { $0.severity == .error }) {
            throw VASTError(
                code: first.code, message: first.message, line: first.line, column: first.column,
                diagnostics: diagnostics.filter { $0.severity == .error })
        }
        return document
    }

    // MARK: - Diagnostics

    func error(_ code: VASTErrorCode, _ message: String, at element: Int) -> VASTError {
        let location = tree.location(ofOffset: tree.elements[element].offset)
        return VASTError(code: code, message: message, line: location.line, column: location.column)
    }

    mutating func warn(_ code: VASTErrorCode, _ message: String, at element: Int) {
        append(VASTDiagnostic(severity: .warning, code: code, message: message), at: element)
    }

    /// A schema violation: an error in strict mode, a warning in lenient mode.
    mutating func violation(_ message: String, at element: Int, code: VASTErrorCode = .schemaValidationError) {
        append(VASTDiagnostic(severity: mode == .strict ? .error : .warning, code: code, message: message), at: element)
    }

    private mutating func append(_ diagnostic: VASTDiagnostic, at element: Int) {
        pendingLocations.append((diagnostics.count, tree.elements[element].offset))
        diagnostics.append(diagnostic)
    }

    /// Fills in the line and column of every diagnostic added since the last call.
    private mutating func resolveLocations() {
        guard !pendingLocations.isEmpty else { return }
        let locations = XMLTree.locations(ofOffsets: pendingLocations.map(\.offset), in: tree.source)
        for (pending, location) in zip(pendingLocations, locations) {
            diagnostics[pending.diagnostic].line = location.line
            diagnostics[pending.diagnostic].column = location.column
        }
        pendingLocations.removeAll()
    }

    // MARK: - Element access

    @inline(__always) func name(_ element: Int) -> String { tree.elements[element].name }

    @inline(__always) func text(_ element: Int) -> String { tree.elements[element].text }

    /// Text, or nil when empty.
    func nonEmptyText(_ element: Int) -> String? {
        let value = tree.elements[element].text
        return value.isEmpty ? nil : value
    }

    /// A URL element's value: its own text, or (VAST 1/2 style) the text of
    /// a `<URL>` child.
    func urlText(_ element: Int) -> String? {
        if let value = nonEmptyText(element) { return value }
        for child in tree.childIndices(of: element) where name(Int(child)) == "URL" {
            return nonEmptyText(Int(child))
        }
        return nil
    }

    @inline(__always) func attribute(_ name: String, _ element: Int) -> String? {
        tree.attribute(name, of: element)
    }

    /// An integer attribute; an unreadable value is a violation and reads as nil.
    mutating func intAttribute(_ attributeName: String, _ element: Int) -> Int? {
        guard let raw = attribute(attributeName, element) else { return nil }
        let trimmed = raw.trimmingXMLWhitespace()
        if let value = Int(trimmed) { return value }
        violation("attribute \(attributeName)=\"\(raw)\" on <\(name(element))> is not an integer", at: element)
        // Some servers write `width="640.0"`; keep the whole value.
        if let value = Double(trimmed), value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return Int(value)
        }
        return nil
    }

    /// A boolean attribute (`true`/`false`/`1`/`0`, any case).
    mutating func boolAttribute(_ attributeName: String, _ element: Int) -> Bool? {
        guard let raw = attribute(attributeName, element) else { return nil }
        switch raw.trimmingXMLWhitespace().lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            violation("attribute \(attributeName)=\"\(raw)\" on <\(name(element))> is not a boolean", at: element)
            return nil
        }
    }

    /// A `HH:MM:SS(.mmm)` value. A bare number of seconds, or `H:M:S` with
    /// fields not two digits wide (both seen in the wild, and read by
    /// vast-client-js), is read too, as a violation.
    mutating func time(_ raw: String, at element: Int, what: String) -> VASTTime? {
        let trimmed = raw.trimmingXMLWhitespace()
        if let time = VASTTime(parsing: trimmed) { return time }
        if let time = Self.looseTime(trimmed) {
            violation("\(what) \"\(raw)\" is not HH:MM:SS(.mmm); read as \(formatNumber(time.seconds)) s", at: element)
            return time
        }
        violation("\(what) \"\(raw)\" is not a valid time", at: element)
        return nil
    }

    /// An offset (`HH:MM:SS(.mmm)` or `n%`) for `skipoffset` and progress
    /// tracking; a loose time (see ``looseTime(_:)``) is read as a
    /// violation, as for ``time(_:at:what:)``. Nil, with no diagnostic,
    /// when the value is neither: the caller says what that costs.
    mutating func offset(_ raw: String, at element: Int, what: String) -> VASTOffset? {
        let trimmed = raw.trimmingXMLWhitespace()
        if let offset = VASTOffset(parsing: trimmed) { return offset }
        guard !trimmed.hasSuffix("%"), let time = Self.looseTime(trimmed) else { return nil }
        violation(
            "\(what) \"\(raw)\" is not HH:MM:SS(.mmm) or n%; read as \(formatNumber(time.seconds)) s", at: element)
        return .time(time)
    }

    /// A time written loosely: a bare number of seconds (`15`, `15.5`), or
    /// `H:M:S(.f)` with unpadded fields (`0:0:15`); nil for anything else
    /// (signs, exponents, `inf`, minutes or seconds of 60 and more).
    static func looseTime(_ text: String) -> VASTTime? {
        func isDecimal(_ part: Substring) -> Bool {
            var dots = 0
            var digits = 0
            for character in part {
                if character == "." { dots += 1 } else if character.isASCIIDigit { digits += 1 } else { return false }
            }
            return digits > 0 && dots <= 1
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let seconds: Double
        switch parts.count {
        case 1:
            guard isDecimal(parts[0]), let value = Double(parts[0]) else { return nil }
            seconds = value
        case 3:
            guard parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit), isDecimal(parts[2]),
                let hours = Int(parts[0]), hours <= 999_999, let minutes = Int(parts[1]), minutes < 60,
                let secondsPart = Double(parts[2]), secondsPart < 60
            else { return nil }
            seconds = Double((hours * 60 + minutes) * 60) + secondsPart
        default:
            return nil
        }
        guard seconds.isFinite, seconds * 1000 <= Double(VASTTime.maximumMilliseconds) else { return nil }
        return VASTTime(seconds: seconds)
    }

    /// An attribute written with another case than the schema's
    /// (`skipOffset` for `skipoffset`), read as a violation; nil when the
    /// element has none.
    mutating func miscasedAttribute(_ attributeName: String, _ element: Int) -> String? {
        let lowered = attributeName.lowercased()
        guard
            let found = tree.attributes(of: element).first(where: {
                $0.prefix == nil && $0.name != attributeName && $0.name.lowercased() == lowered
            })
        else { return nil }
        violation(
            "attribute \(found.name) on <\(name(element))> is spelt \(attributeName) in VAST; read as it", at: element)
        return found.value
    }

    mutating func extensions(_ element: Int) -> [VASTExtension] {
        var result: [VASTExtension] = []
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            let childName = name(child)
            guard childName == "Extension" || childName == "CreativeExtension" else { continue }
            // VAST's `type` is the unprefixed one; others (`xsi:type`) keep their qualified names.
            var attributes: [String: String] = [:]
            for attribute in tree.attributes(of: child) where attribute.prefix != nil || attribute.name != "type" {
                attributes[attribute.qualifiedName] = attribute.value
            }
            result.append(
                VASTExtension(
                    type: tree.unprefixedAttribute("type", of: child), attributes: attributes,
                    rawXML: tree.rawContent(of: child)))
        }
        return result
    }

    mutating func trackingEvents(_ element: Int) -> [TrackingEvent] {
        var events: [TrackingEvent] = []
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            guard name(child) == "Tracking" else { continue }
            guard let eventName = attribute("event", child) else {
                violation("<Tracking> without an event attribute", at: child)
                continue
            }
            guard let url = urlText(child) else {
                warn(.schemaValidationError, "<Tracking event=\"\(eventName)\"> has no URL; ignored", at: child)
                continue
            }
            let event = knownEvent(eventName, at: child)
            var offset: VASTOffset?
            if let rawOffset = attribute("offset", child) {
                offset = self.offset(rawOffset, at: child, what: "tracking offset")
                if offset == nil {
                    violation("tracking offset \"\(rawOffset)\" is not a time or percentage", at: child)
                }
            } else if event == .progress {
                violation("<Tracking event=\"progress\"> without an offset", at: child)
            }
            events.append(TrackingEvent(event: event, url: url, offset: offset))
        }
        return events
    }

    /// A tracking event name as VAST spells it. One in another case
    /// (`Start`, `FIRSTQUARTILE`) is read as the event it names, as a
    /// violation: its pings are owed. A name VAST does not define is kept
    /// (it never fires) and is a violation too.
    mutating func knownEvent(_ eventName: String, at element: Int) -> TrackingEventType {
        let event = TrackingEventType(eventName)
        guard !TrackingEventType.known.contains(event) else { return event }
        let lowered = eventName.lowercased()
        if let match = TrackingEventType.known.first(where: { $0.rawValue.lowercased() == lowered }) {
            violation(
                "<Tracking event=\"\(eventName)\"> is spelt \"\(match.rawValue)\" in VAST; read as it", at: element)
            return match
        }
        violation("<Tracking event=\"\(eventName)\"> is not a VAST tracking event; it never fires", at: element)
        return event
    }

    mutating func clickURL(_ element: Int) -> ClickURL? {
        guard let url = urlText(element) else { return nil }
        return ClickURL(id: attribute("id", element), url: url)
    }

    mutating func adParameters(_ element: Int) -> AdParameters {
        AdParameters(xmlEncoded: boolAttribute("xmlEncoded", element), value: text(element))
    }

    /// Reads a resource element, or nil when the element is not one.
    mutating func resource(_ element: Int) -> CreativeResource? {
        switch name(element) {
        case "StaticResource":
            guard let url = urlText(element) else { return nil }
            return .staticResource(creativeType: attribute("creativeType", element), url: url)
        case "IFrameResource":
            guard let url = urlText(element) else { return nil }
            return .iframe(url: url)
        case "HTMLResource":
            return .html(text(element))
        default:
            return nil
        }
    }
}
