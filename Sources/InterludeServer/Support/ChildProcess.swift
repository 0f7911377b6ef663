import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a child process could not be run.
package struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// Runs a tool (ffmpeg, fc-match) to completion: stdin from /dev/null, its
/// stdout and stderr collected (or stdout discarded), and its exit status.
///
/// On Linux this spawns with `posix_spawn` instead of Foundation's `Process`:
/// `Process.run()` in the toolchain's Foundation (Swift 6.3) over-reads a
/// `dirent` while it lists `/proc/self/fd` and crashes the whole process now
/// and then (swift-corelibs-foundation PR #5472, "Process.run() on Linux
/// crashes intermittently"). A CI run of the tests died of it while the
/// conditioning step ran ffmpeg. Elsewhere `Process` is used.
package enum ChildProcess {
    package struct Outcome: Sendable {
        /// The exit status; 128 + the signal for a child killed by one.
        package var status: Int32
        package var output: [UInt8]
        package var errors: [UInt8]
    }

    package static func run(_ executable: String, _ arguments: [String], keepOutput: Bool = true)
        throws(ChildProcessError) -> Outcome
    {
        #if os(Linux)
            return try spawn(executable, arguments, keepOutput: keepOutput)
        #elseif os(macOS)
            return try foundationRun(executable, arguments, keepOutput: keepOutput)
        #else
            // iOS and tvOS run no child processes (Foundation has no Process there).
            throw ChildProcessError(message: "cannot run \(executable): no child processes on this platform")
        #endif
    }

    #if os(Linux)
        private static func spawn(_ executable: String, _ arguments: [String], keepOutput: Bool)
            throws(ChildProcessError) -> Outcome
        {
            var outputPipe: [Int32] = [-1, -1]
            var errorPipe: [Int32] = [-1, -1]
            guard makePipe(&outputPipe) else { throw failure("pipe", executable) }
            guard makePipe(&errorPipe) else {
                close(outputPipe[0])
                close(outputPipe[1])
                throw failure("pipe", executable)
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            if keepOutput {
                posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var child: pid_t = 0
            let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
            close(outputPipe[1])
            close(errorPipe[1])
            guard spawned == 0 else {
                close(outputPipe[0])
                close(errorPipe[0])
                throw ChildProcessError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
            }
            let (output, errors) = drain(outputPipe[0], errorPipe[0])
            close(outputPipe[0])
            close(errorPipe[0])
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 {
                guard errno == EINTR else { throw failure("waitpid", executable) }
            }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            let signal = status & 0x7F
            return Outcome(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output: output, errors: errors)
        }

        /// A pipe whose ends close on exec (`pipe2` is not imported), so a
        /// child spawned meanwhile does not hold another child's pipe open.
        private static func makePipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            return true
        }

        /// Reads both pipes to their ends together, so neither fills and
        /// blocks the child.
        private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
            var collected: [[UInt8]] = [[], []]
            var open = [true, true]
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while open[0] || open[1] {
                var entries = [
                    pollfd(fd: open[0] ? first : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: open[1] ? second : -1, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&entries, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for index in 0..<2 where open[index] && entries[index].revents != 0 {
                    let count = InterruptibleSocketCalls.retrying {
                        read(entries[index].fd, &buffer, buffer.count)
                    }
                    if count > 0 {
                        collected[index] += buffer[0..<count]
                    } else {
                        open[index] = false
                    }
                }
            }
            return (collected[0], collected[1])
        }

        private static func failure(_ call: String, _ executable: String) -> ChildProcessError {
            ChildProcessError(message: "cannot run \(executable): \(call) failed (\(String(cString: strerror(errno))))")
        }
    #elseif os(macOS)
        private static func foundationRun(_ executable: String, _ arguments: [String], keepOutput: Bool)
            throws(ChildProcessError) -> Outcome
        {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = keepOutput ? output : FileHandle.nullDevice
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw ChildProcessError(message: "cannot run \(executable): \(error.localizedDescription)")
            }
            // Standard error is read on a thread of its own while standard output is
            // read here: a child filling one pipe must never block on the other.
            let errorData = Locked(Data())
            let errorsRead = DispatchSemaphore(value: 0)
            // The handle, not the pipe, crosses to the thread: FileHandle is Sendable.
            let errorHandle = errors.fileHandleForReading
            let reader = Thread {
                errorData.withLock { $0 = errorHandle.readDataToEndOfFile() }
                errorsRead.signal()
            }
            reader.start()
            let data = keepOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
            process.waitUntilExit()
            errorsRead.wait()
            return Outcome(
                status: process.terminationStatus, output: [UInt8](data), errors: [UInt8](errorData.withLock { $0 }))
        }
    #endif
}
