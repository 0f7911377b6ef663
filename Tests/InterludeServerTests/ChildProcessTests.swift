import Foundation
import Testing

@testable import InterludeServer

/// The tool runner the media steps use instead of Foundation's `Process`.
@Suite struct ChildProcessTests {
    @Test func statusOutputAndErrorsComeBackApart() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(outcome.status == 3)
        #expect(String(decoding: outcome.output, as: UTF8.self) == "out")
        #expect(String(decoding: outcome.errors, as: UTF8.self) == "err")
    }

    @Test func aMegabyteOnEachStreamDoesNotBlockTheChild() throws {
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"])
        #expect(outcome.status == 0)
        #expect(outcome.output.count == 1_048_576)
        #expect(outcome.errors.count == 1_048_576)
    }

    @Test func discardedOutputIsNotCollectedAndStdinIsEmpty() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "cat; echo seen"], keepOutput: false)
        #expect(outcome.status == 0)
        #expect(outcome.output.isEmpty)
    }

    @Test func aMissingToolIsAnErrorAndAKilledOneReportsItsSignal() throws {
        #expect(throws: ChildProcessError.self) { try ChildProcess.run("/nonexistent/tool", []) }
        let killed = try ChildProcess.run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.status == 128 + 9)
    }
}
