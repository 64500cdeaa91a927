// A cancelled `Task.sleep` keeps its timer, and the memory behind it, until the sleep's original
// deadline on Linux: a minimal reproduction (no dependencies; Swift 6, glibc).
//
//     swiftc -O cancelled-sleep.swift -o /tmp/cancelled-sleep
//     /tmp/cancelled-sleep 10      # sleeps of 10 s, cancelled once they sleep
//     /tmp/cancelled-sleep 0.1     # the same with sleeps of 100 ms
//
// It starts 200,000 tasks, 1,000 at a time, that each sleep for the given seconds, cancels each
// one once it sleeps and awaits it: every task has ended within a second. It then prints the
// resident memory every second, after asking glibc to give back what is free (`malloc_trim`).
// With 10-second sleeps the memory stays up (about 0.7 KB per cancelled sleep) until the
// 10 seconds have passed since each sleep began, and only then falls back; with 100-ms sleeps it
// is back at once. So the cost of a cancelled sleep is
// held for as long as the sleep would have lasted, after its task has ended.
//
// Why it matters: a pool that arms a 60-second idle timer (and a 30-second keep-alive) each
// time a connection goes back and cancels them at the next lease, as PostgresNIO's
// `ConnectionPool` does, holds at 5,000 leases a second about 300,000 of them at once:
// Gatehouse's soak saw 326,000 live timers and its server's memory at 250 MiB instead of 45.
#if canImport(Glibc)
import Glibc
#endif

/// The resident memory, in MiB, once glibc has given back the free pages of its heap.
func residentMiB() -> Double {
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    _ = withUnsafeMutablePointer(to: &size) { sizePointer in
        withUnsafeMutablePointer(to: &resident) { residentPointer in
            withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
        }
    }
    return Double(resident * Int(sysconf(Int32(_SC_PAGESIZE)))) / 1_048_576
}

func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 10
let sleep = Duration.milliseconds(Int64(seconds * 1000))
let count = 200_000
let start = ContinuousClock.now
func elapsed() -> Double {
    let duration = ContinuousClock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

print("resident before: \(rounded(residentMiB())) MiB")
for _ in 0..<(count / 1_000) {
    let tasks = (0..<1_000).map { _ in Task { try? await Task.sleep(for: sleep) } }
    // Let them start sleeping: a sleep cancelled before it begins arms no timer.
    try? await Task.sleep(for: .milliseconds(2))
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
}
print("t=\(rounded(elapsed())) s: \(count) sleeps of \(seconds) s cancelled, their tasks ended; resident \(rounded(residentMiB())) MiB")
while elapsed() < seconds + 3 {
    try? await Task.sleep(for: .seconds(1))
    print("t=\(rounded(elapsed())) s: resident \(rounded(residentMiB())) MiB")
}
