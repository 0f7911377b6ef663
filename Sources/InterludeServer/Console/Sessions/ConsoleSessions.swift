import Foundation
internal import InterludeFormatting

/// Client-side sessions for the console: those the collector has beacons
/// of and those this process served a document to.
final class ConsoleSessions: Sendable {
    let store: BeaconStore
    let index: BeaconSessionIndex
    let documents: SessionDocuments
    let decisioner: AdDecisioner
    /// True for the ID of a pod-serving stream: its server-side beacons are
    /// in the collector under the stream ID, and the stream's page shows them.
    let isStream: @Sendable (String) -> Bool

    init(
        store: BeaconStore, index: BeaconSessionIndex, documents: SessionDocuments, decisioner: AdDecisioner,
        isStream: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.store = store
        self.index = index
        self.documents = documents
        self.decisioner = decisioner
        self.isStream = isStream
    }

    struct Listing: Encodable, Sendable {
        struct Entry: Encodable, Sendable {
            var session: String
            var document: String?
            var beacons: Int
            var errors: Int
            var servedAt: String?
            var lastActivityAt: String
        }
        var sessions: [Entry]
    }

    /// The most recently active client-side sessions, newest first (streams left out).
    func list(limit: Int) throws(HTTPError) -> Listing {
        let summaries: [BeaconSessionIndex.Summary]
        do {
            try store.flush()
            summaries = try index.recent(limit: limit)
        } catch {
            throw HTTPError(status: 503, message: error.message)
        }
        // Times compare in the store's milliseconds; within one, the arrival
        // order of the index (newest beacon first) decides, then recency of serving.
        var entries: [String: (milliseconds: Int64, rank: Int, entry: Listing.Entry)] = [:]
        for (rank, (session, served)) in documents.recent(limit: limit).enumerated() {
            entries[session] = (
                Self.milliseconds(served.servedAt), summaries.count + rank,
                Listing.Entry(
                    session: session, document: served.route, beacons: 0, errors: 0,
                    servedAt: ISO8601Timestamp.string(from: served.servedAt),
                    lastActivityAt: ISO8601Timestamp.string(from: served.servedAt))
            )
        }
        for (rank, summary) in summaries.enumerated() where !isStream(summary.session) {
            let served = documents.served(summary.session)
            let last = max(summary.lastBeaconAt, served?.servedAt ?? .distantPast)
            entries[summary.session] = (
                Self.milliseconds(last), rank,
                Listing.Entry(
                    session: summary.session, document: served?.route, beacons: summary.beacons,
                    errors: summary.errors, servedAt: served.map { ISO8601Timestamp.string(from: $0.servedAt) },
                    lastActivityAt: ISO8601Timestamp.string(from: last))
            )
        }
        let sorted = entries.values.sorted {
            ($0.milliseconds, -$0.rank, $0.entry.session) > ($1.milliseconds, -$1.rank, $1.entry.session)
        }
        return Listing(sessions: sorted.prefix(limit).map(\.entry))
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// One session against its document; 404 when nothing is known of it.
    func report(session: String) throws(HTTPError) -> ClientSessionReport {
        guard Catalog.isSafeID(session) else { throw .badRequest("session id '\(session.prefix(64))' is not valid") }
        let beacons: [Beacon]
        do {
            beacons = try store.beacons(session: session)
        } catch {
            throw HTTPError(status: 503, message: error.message)
        }
        let served = documents.served(session)
        guard served != nil || !beacons.isEmpty else {
            throw .notFound("no session '\(session)': nothing was served to it and no beacon of it arrived")
        }
        return ClientSessionReport(
            session: session, served: served, beacons: beacons, decisioner: decisioner)
    }
}
