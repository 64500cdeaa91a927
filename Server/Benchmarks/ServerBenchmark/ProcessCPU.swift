import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time of processes, read from `/proc/<pid>/stat` (user + system time of all the process's
/// threads, in clock ticks of 10 ms): how much of the shared cores a row of the benchmark cost
/// the server, PostgreSQL and the load generator, whatever else runs on the machine.
enum ProcessCPU {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The fields of `/proc/<pid>/stat` after the command name (which may hold spaces):
    /// index 0 is the state (field 3), 1 the parent's pid, 11 and 12 `utime` and `stime`,
    /// 13 and 14 `cutime` and `cstime` (children that ended and were waited for).
    private static func fields(of pid: Int32) -> [Substring]? {
        fields(at: "/proc/\(pid)/stat")
    }

    private static func fields(at path: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// CPU seconds `pid` has used (0 once it has ended); with `children`, also those of its
    /// children that have ended.
    static func seconds(of pid: Int32, children: Bool = false) -> Double {
        guard let fields = fields(of: pid), fields.count > 14 else { return 0 }
        let used = (11...(children ? 14 : 12)).reduce(0.0) { $0 + (Double(fields[$1]) ?? 0) }
        return used / ticksPerSecond
    }

    /// CPU seconds the calling thread has used (`/proc/thread-self/stat`).
    static func threadSeconds() -> Double {
        guard let fields = fields(at: "/proc/thread-self/stat"), fields.count > 12 else { return 0 }
        return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticksPerSecond
    }

    /// CPU seconds of a PostgreSQL cluster: the postmaster (with its ended backends, which it
    /// waits for) and every process it started (backends, WAL writer, checkpointer, …).
    static func clusterSeconds(postmaster: Int32) -> Double {
        children(of: postmaster).reduce(seconds(of: postmaster, children: true)) { total, fields in
            total + ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticksPerSecond
        }
    }

    /// How many processes `postmaster` has started that are still there (running or not yet
    /// waited for).
    static func childCount(of postmaster: Int32) -> Int {
        children(of: postmaster).count
    }

    /// The `/proc/<pid>/stat` fields (``fields(of:)``) of every process whose parent is `parent`.
    private static func children(of parent: Int32) -> [[Substring]] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry), pid != parent, let fields = fields(of: pid), fields.count > 12,
                Int32(fields[1]) == parent
            else { return nil }
            return fields
        }
    }

    /// The parent of `pid` (for a PostgreSQL backend: the postmaster).
    static func parent(of pid: Int32) -> Int32? {
        fields(of: pid).flatMap { $0.count > 1 ? Int32($0[1]) : nil }
    }
}

/// The processes a row's CPU is read from: the server child, PostgreSQL's cluster where the
/// server runs on it, and this process (the load generator).
struct CPUProbe: Sendable {
    var server: Int32
    var postmaster: Int32?

    /// Cumulative CPU seconds at this instant.
    struct Sample: Sendable {
        var server: Double
        var postgres: Double?
        var loadGenerator: Double
    }

    func sample() -> Sample {
        Sample(
            server: ProcessCPU.seconds(of: server),
            postgres: postmaster.map(ProcessCPU.clusterSeconds(postmaster:)),
            loadGenerator: ProcessCPU.seconds(of: getpid())
        )
    }
}

/// CPU seconds a row used, between the first and the last instant of its window.
struct RowCPU: Sendable {
    var server: Double
    var postgres: Double?
    var loadGenerator: Double

    /// CPU work done in the benchmark's own process (``SQLiteRefreshStatements``), counted as
    /// the server's.
    init(inProcess seconds: Double) {
        server = seconds
        postgres = nil
        loadGenerator = 0
    }

    init(from start: CPUProbe.Sample, to end: CPUProbe.Sample) {
        server = end.server - start.server
        postgres = end.postgres.flatMap { end in start.postgres.map { end - $0 } }
        loadGenerator = end.loadGenerator - start.loadGenerator
    }
}
