import Foundation

/// What a load run measured.
struct LoadResult {
    var requests: Int
    var failures: Int
    var seconds: Double
    /// Sorted latencies in milliseconds.
    var latencies: [Double]

    var throughput: Double { Double(requests) / seconds }
    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }

    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        return latencies[min(latencies.count - 1, max(0, Int((Double(latencies.count) * p).rounded(.up)) - 1))]
    }
}

/// A workload: what each virtual user prepares once, and the request it repeats.
struct Workload: Sendable {
    var name: String
    /// Per virtual user, before timing starts: returns the user's state (a token, say).
    var prepare: @Sendable (HTTPConnection) async throws -> String
    /// One timed request; returns the next state, or nil when the request failed.
    var step: @Sendable (HTTPConnection, String) async throws -> String?
}

/// Runs `workload` with `concurrency` virtual users, each on its own keep-alive connection,
/// for `duration` after a short warm-up; throughput counts requests that complete in the window.
func runLoad(_ workload: Workload, port: Int, concurrency: Int, duration: Duration) async throws -> LoadResult {
    let clock = ContinuousClock()
    let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
        let start = clock.now.advanced(by: .milliseconds(300))
        let deadline = start.advanced(by: duration)
        for _ in 0..<concurrency {
            group.addTask {
                try await HTTPConnection.with(port: port) { connection in
                    var state = try await workload.prepare(connection)
                    var latencies: [Double] = []
                    var failures = 0
                    // Count what completes inside [start, deadline], whenever it began, so
                    // that slow requests (bcrypt under a queue) are not undercounted.
                    while clock.now < deadline {
                        let began = clock.now
                        let next = try await workload.step(connection, state)
                        let ended = clock.now
                        state = next ?? state
                        guard ended >= start, ended <= deadline else { continue }
                        if next != nil {
                            latencies.append(milliseconds(ended - began))
                        } else {
                            failures += 1
                        }
                    }
                    return (latencies, failures)
                }
            }
        }
        var all: [Double] = []
        var failures = 0
        for try await (latencies, failed) in group {
            all += latencies
            failures += failed
        }
        return (all.sorted(), failures)
    }
    return LoadResult(
        requests: results.0.count,
        failures: results.1,
        seconds: seconds(duration),
        latencies: results.0
    )
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
