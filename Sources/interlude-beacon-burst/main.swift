// Sends exactly N beacon requests over C keep-alive connections and reports
// how many were answered 204 and how fast. wrk runs for a duration, not a
// count, so it cannot show "every beacon sent was stored"; this can.
//
// usage: interlude-beacon-burst PORT [TOTAL=100000] [CONNECTIONS=64] [SESSION=burst]
//        interlude-beacon-burst PORT --paths FILE [CONNECTIONS=64]
// The second form GETs every path of FILE (one a line) once, spread over
// the connections: each media verification of a list, exactly once.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = UInt16(arguments[1]) else {
    FileHandle.standardError.write(
        Data(
            "usage: interlude-beacon-burst PORT [TOTAL] [CONNECTIONS] [SESSION] | PORT --paths FILE [CONNECTIONS]\n"
                .utf8))
    exit(2)
}
if arguments.count >= 4, arguments[2] == "--paths" {
    guard let text = try? String(contentsOfFile: arguments[3], encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read \(arguments[3])\n".utf8))
        exit(2)
    }
    let paths = text.split(separator: "\n").map(String.init)
    let width = arguments.count > 4 ? Int(arguments[4]) ?? 64 : 64
    exit(Burst.runPathList(port: port, paths: paths, connections: width))
}
let total = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
let connections = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64
let session = arguments.count > 4 ? arguments[4] : "burst"

let tallies = (0..<connections).map { _ in Tally() }
let group = DispatchGroup()
let started = DispatchTime.now().uptimeNanoseconds
for worker in 0..<connections {
    let share = total / connections + (worker < total % connections ? 1 : 0)
    let tally = tallies[worker]
    group.enter()
    let thread = Thread {
        Burst.run(port: port, session: session, worker: worker, count: share, tally: tally)
        group.leave()
    }
    thread.start()
}
group.wait()
let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
let answered = tallies.reduce(0) { $0 + $1.answered204 }
let other = tallies.reduce(0) { $0 + $1.other }
let failures = tallies.filter(\.failed).count
print(
    "sent=\(total) answered204=\(answered) other=\(other) failedConnections=\(failures) seconds=\(String(format: "%.3f", seconds)) rate=\(Int(Double(answered) / seconds))"
)
exit(answered == total ? 0 : 1)
