import Foundation
import Interlude

/// Verification (and click-tracking) pings as the loader's beacon queue
/// settled them, counted per event ID: what the demo's report compares with
/// what the server accepted.
///
/// `@unchecked Sendable` is safe here: `counts` and `others` are read and
/// written only while `lock` is held.
final class PingLog: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var dropped: [String: Int] = [:]
    private var others: [(event: String, ad: String)] = []

    /// Records a settled ping; returns its event ID when it is a verification.
    @discardableResult
    func record(_ beacon: Interlude.Beacon, _ delivery: BeaconQueue.Delivery) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard beacon.event == "verification" else {
            others.append((beacon.event, beacon.adID))
            return nil
        }
        let eventID = URL(string: beacon.url)?.lastPathComponent ?? beacon.url
        if delivery == .delivered { counts[eventID, default: 0] += 1 } else { dropped[eventID, default: 0] += 1 }
        return eventID
    }

    /// Verifications the server answered, per event ID.
    var verificationsSent: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Verifications the queue gave up on, per event ID.
    var verificationsDropped: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }
}
