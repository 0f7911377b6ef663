import Foundation

/// Background threads of the server (beacon sending, deciding ahead) run
/// below the HTTP threads, so requests get the cores first.
enum BackgroundPriority {
    /// Lowers the calling thread's scheduling priority to nice `niceness`.
    static func lowerCurrentThread(to niceness: Int32) {
        #if os(Linux)
            // PRIO_PROCESS with 0 is the calling thread on Linux (nice is per thread there).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #else
            Thread.current.qualityOfService = .utility
        #endif
    }
}
