import Foundation

extension PodBreakDecision {
    /// The decision as the session store keeps it: the JSON `Codable` reads
    /// (the same keys and shapes `JSONEncoder` writes), written by hand
    /// because `JSONEncoder` was most of a decision's cost on the reload
    /// that meets a new break.
    var storedJSON: String {
        var writer = StoredJSONWriter(capacity: 512 + ads.reduce(0) { $0 + $1.vast.utf8.count + 1024 })
        writer.beginObject()
        writer.key("ads")
        writer.beginArray()
        for ad in ads { ad.write(into: &writer) }
        writer.endArray()
        writer.key("breakDigest")
        writer.string(breakDigest)
        writer.key("breakID")
        writer.string(breakID)
        writer.key("decidedAt")
        writer.date(decidedAt)
        writer.key("duration")
        writer.int(duration)
        writer.key("requestedDuration")
        writer.int(requestedDuration)
        writer.key("slateDuration")
        writer.int(slateDuration)
        writer.key("streamID")
        writer.string(streamID)
        writer.key("targeting")
        writer.stringMap(targeting)
        writer.endObject()
        return writer.text
    }
}

extension PodAd {
    fileprivate func write(into writer: inout StoredJSONWriter) {
        writer.beginObject()
        writer.key("adID")
        writer.string(adID)
        writer.key("advertiser")
        writer.string(advertiser)
        writer.key("beacons")
        writer.stringListMap(beacons)
        writer.key("clickThrough")
        writer.string(clickThrough)
        writer.key("creativeID")
        writer.string(creativeID)
        writer.key("duration")
        writer.int(duration)
        writer.key("events")
        writer.beginArray()
        for event in events {
            writer.beginObject()
            writer.key("id")
            writer.string(event.id)
            writer.key("offset")
            writer.int(event.offset)
            writer.key("type")
            writer.string(event.type.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.key("offset")
        writer.int(offset)
        writer.key("position")
        writer.int(position)
        writer.key("title")
        writer.string(title)
        writer.key("vast")
        writer.string(vast)
        writer.endObject()
    }
}
