// SDK benchmarks: cold restore from the file store, and refresh requests made by 1,000
// concurrent `accessToken()` calls after expiry.
//
//     swift run -c release gatehouse-sdk-benchmark [runs]
import Foundation

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
let samples = try await coldRestoreSamples(runs: runs)
let median = percentile(samples, 0.5)
let p99 = percentile(samples, 0.99)
let refreshes = try await refreshRequests(callers: 1_000)

print("SDK (\(runs) cold restores; 1,000 concurrent accessToken() after expiry)")
print("| Figure | Result | Bound or target | Ratio |")
print("|---|---|---|---|")
print(String(format: "| cold restore, median | %.0f µs | < 1,000 µs | %.2f |", median, median / 1000))
print(String(format: "| cold restore, p99 | %.0f µs | < 2 s (design budget) | %.5f |", p99, p99 / 2_000_000))
print("| refresh requests for 1,000 callers | \(refreshes) | 1 | \(String(format: "%.2f", Double(refreshes))) |")
