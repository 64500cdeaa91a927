// SDK benchmarks: the restore an app pays at launch (a fresh process, `GoTrueBackend(url:)`,
// the platform's default store, a live local server), the in-memory restore beside it, and the
// refresh requests made by 1,000 concurrent `accessToken()` calls after expiry.
//
//     gatehouse-sdk-benchmark [--runs N] [--server URL]
//
// Without `--server`, the real path runs against a server it starts from GATEHOUSE_SERVER_BIN
// (Benchmarks/run passes the release build); with neither, that part is skipped and said so.
import Foundation

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == RealPathRestore.childFlag, let server = arguments.dropFirst().first.flatMap(URL.init(string:)) {
    await RealPathRestore.child(server: server)
}
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let runs = option("--runs").flatMap(Int.init) ?? 1_000

var rows: [String] = []
@MainActor func row(_ figure: String, _ result: Double, unit: String = "µs", bound: String, ratio: Double) {
    rows.append(String(format: "| %@ | %.0f %@ | %@ | %.2f |", figure, result, unit, bound, ratio))
}
/// The median and p99 rows of `sorted` samples against their targets in µs (`median` may be
/// described as `medianBound`).
@MainActor func percentileRows(
    _ figure: String,
    _ sorted: [Double],
    median: Double,
    medianBound: String? = nil,
    p99: Double
) {
    row(
        "\(figure), median",
        percentile(sorted, 0.5),
        bound: medianBound ?? "< \(Int(median)) µs",
        ratio: percentile(sorted, 0.5) / median
    )
    row("\(figure), p99", percentile(sorted, 0.99), bound: "< \(Int(p99)) µs", ratio: percentile(sorted, 0.99) / p99)
}

let processRuns = option("--process-runs").flatMap(Int.init) ?? 100
let server = try await BenchmarkServer.start(url: option("--server"))
if let server {
    // The default store of this process and of its children: a folder of the benchmark's own.
    let configHome = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatehouse-real-path-\(UUID().uuidString)"
    )
    setenv("XDG_CONFIG_HOME", configHome.path, 1)
    try await RealPathRestore.seed(server: server.url, configHome: configHome)
    let samples = try await RealPathRestore.inProcessSamples(server: server.url, runs: runs)
    let restores = samples.map(\.restore).sorted()
    let checks = samples.map(\.serverCheck).sorted()
    percentileRows("real-path restore", restores, median: 150, p99: 500)
    row("then the server's check (GET /user), median", percentile(checks, 0.5), bound: "reported apart", ratio: 0)
    row("then the server's check (GET /user), p99", percentile(checks, 0.99), bound: "reported apart", ratio: 0)
    let first = try RealPathRestore.samples(server: server.url, configHome: configHome, runs: processRuns).map(
        \.restore
    ).sorted()
    row(
        "first restore of a new process, median (\(processRuns) processes)",
        percentile(first, 0.5),
        bound: "reported (once per launch)",
        ratio: 0
    )
    try? FileManager.default.removeItem(at: configHome)
    server.stop()
} else {
    rows.append("| real-path restore | skipped: no --server and no GATEHOUSE_SERVER_BIN | | |")
}
let cold = try await coldRestoreSamples(runs: runs)
let memory = cold.restores
let storeRead = percentile(cold.storeReads, 0.5)
let coldStoreRead = percentile(cold.coldStoreReads, 0.5)
percentileRows("in-memory backend, file store", memory, median: 7, medianBound: "≈ 7 µs (two rounds ago)", p99: 500)
row(
    "the same without the background check, median",
    percentile(cold.unchecked, 0.5),
    bound: "the store's read, one after another",
    ratio: percentile(cold.unchecked, 0.5) / storeRead
)
row(
    "the file store's read alone (file and JSONDecoder), one after another, median",
    storeRead,
    bound: "floor of a restore on a warm core",
    ratio: percentile(memory, 0.5) / storeRead
)
row(
    "the file store's read alone, each after a 1 ms sleep, median",
    coldStoreRead,
    bound: "floor of a restore on a cold core",
    ratio: percentile(memory, 0.5) / coldStoreRead
)
let refreshes = try await refreshRequests(callers: 1_000)

print("SDK (\(runs) restores of each kind; 1,000 concurrent accessToken() after expiry)")
print("| Figure | Result | Bound or target | Ratio |")
print("|---|---|---|---|")
for row in rows { print(row) }
print("| refresh requests for 1,000 callers | \(refreshes) | 1 | \(String(format: "%.2f", Double(refreshes))) |")
