import Foundation

/// What is being made, for the terminal: reported as each job starts and ends.
public struct MediaProgress: Sendable, Hashable, CustomStringConvertible {
    /// What kind of media.
    public enum Kind: String, Sendable, Hashable {
        /// A creative's MP4 (VAST media file, and the source of its conditioned ad).
        case creative
        /// A VOD title's rendition.
        case title
        /// A live channel's looped source.
        case live
        /// A conditioned ad.
        case ad
        /// The slate.
        case slate
    }

    /// Whether the job is starting or done.
    public enum Phase: String, Sendable, Hashable {
        case started, finished
    }

    /// What kind of media.
    public var kind: Kind
    /// The title, channel source or creative id.
    public var item: String
    /// The profile id (or rendition height for creatives).
    public var profile: String
    /// Started or finished.
    public var phase: Phase
    /// Jobs finished so far (including this one when finished).
    public var finished: Int
    /// Jobs to run in this build.
    public var total: Int
    /// Seconds since the build began.
    public var elapsed: Double

    /// `making media 3/14: ad orbit-bikes-10s 540p` style text.
    public var description: String {
        "\(phase == .started ? "making" : "made") \(kind.rawValue) \(item) \(profile) (\(finished)/\(total) done, "
            + "\(Int(elapsed)) s)"
    }
}

/// One ffmpeg run and what to do before and after it.
struct FFmpegJob: Sendable {
    var kind: MediaProgress.Kind
    var item: String
    var profile: String
    var arguments: [String]
    /// Runs just before ffmpeg (make the work directory, write text files).
    var prepare: @Sendable () throws(MediaError) -> Void
    /// Runs after ffmpeg succeeded (probe, write the manifest, move into place).
    var finish: @Sendable () throws(MediaError) -> Void
    /// Runs when ffmpeg or `finish` failed (remove partial output).
    var cleanUp: @Sendable () -> Void
}

/// Runs ffmpeg jobs on a bounded pool of worker threads (one process per
/// worker), stopping at the first failure once the running jobs end.
struct FFmpegPool: Sendable {
    var ffmpegPath: String
    var width: Int
    var niceness = 0

    /// Runs `jobs`; progress counts from `finishedBefore` of `total` (for builds in phases) and
    /// times from `began`.
    func run(
        _ jobs: [FFmpegJob], finishedBefore: Int = 0, total: Int? = nil, began: Date = Date(),
        progress: @escaping @Sendable (MediaProgress) -> Void
    ) throws(MediaError) {
        guard !jobs.isEmpty else { return }
        struct State {
            var next = 0
            var finished: Int
            var failure: MediaError?
        }
        let state = Locked(State(finished: finishedBefore))
        let total = total ?? jobs.count
        let workers = max(1, min(width, jobs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index: Int? = state.withLock { state in
                    guard state.failure == nil, state.next < jobs.count else { return nil }
                    state.next += 1
                    return state.next - 1
                }
                guard let index else { return }
                let job = jobs[index]
                progress(
                    MediaProgress(
                        kind: job.kind, item: job.item, profile: job.profile, phase: .started,
                        finished: state.withLock { $0.finished }, total: total, elapsed: Date().timeIntervalSince(began)
                    ))
                do throws(MediaError) {
                    try job.prepare()
                    try Self.execute(
                        ffmpegPath, job.arguments, label: "\(job.kind.rawValue) \(job.item) \(job.profile)")
                    try job.finish()
                    let finished = state.withLock { state in
                        state.finished += 1
                        return state.finished
                    }
                    progress(
                        MediaProgress(
                            kind: job.kind, item: job.item, profile: job.profile, phase: .finished, finished: finished,
                            total: total, elapsed: Date().timeIntervalSince(began)))
                } catch {
                    job.cleanUp()
                    state.withLock { state in
                        if state.failure == nil { state.failure = error }
                    }
                    return
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Runs `executable` with `arguments`; a non-zero exit is an error with the end of its stderr.
    static func execute(_ executable: String, _ arguments: [String], label: String) throws(MediaError) {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments, keepOutput: false)
        } catch {
            throw MediaError(error.message)
        }
        guard outcome.status == 0 else {
            let text = String(decoding: outcome.errors, as: UTF8.self).suffix(600)
            throw MediaError("ffmpeg failed for \(label) (status \(outcome.status)): \(text)")
        }
    }
}
