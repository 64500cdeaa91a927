import Foundation
import NIOCore
import NIOPosix

/// What a load run measured.
struct LoadResult {
    var requests: Int
    var failures: Int
    var seconds: Double
    /// Sorted latencies in milliseconds.
    var latencies: [Double]
    /// CPU the processes used over the window, when the run was given a ``CPUProbe``.
    var cpu: RowCPU? = nil
    /// Bytes PostgreSQL wrote to its log over the window, when the run was given a ``WALProbe``.
    var walBytes: Int64? = nil

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
    /// The timed request for the current state.
    var request: @Sendable (String) -> LoadRequest
    /// The next state from the current one and a response's status and body; nil when the
    /// request failed.
    var next: @Sendable (String, Int, ByteBuffer) -> String?
}

/// Runs `workload` with `concurrency` virtual users, each on its own keep-alive connection
/// (``LoadDriver``), for `duration` after a short warm-up; throughput counts requests that
/// complete in the window. With `probe`, the CPU of its processes is read at the window's start
/// and end (tasks scheduled on an event loop for those instants), and with `wal` PostgreSQL's log
/// position at the same instants. With `rate`, each user paces
/// its requests so that all of them together send about `rate` a second (an open load below
/// what the server could take, for a floor at another row's rate).
func runLoad(
    _ workload: Workload,
    port: Int,
    concurrency: Int,
    duration: Duration,
    probe: CPUProbe? = nil,
    wal: WALProbe? = nil,
    rate: Double? = nil
) async throws -> LoadResult {
    let pace = rate.map { TimeAmount.nanoseconds(Int64(Double(concurrency) / max($0, 1) * 1e9)) }
    var states: [String] = []
    for _ in 0..<concurrency {
        states.append(try await HTTPConnection.with(port: port) { try await workload.prepare($0) })
    }
    let group = MultiThreadedEventLoopGroup.singleton
    let start = NIODeadline.now() + .milliseconds(300)
    let deadline = start + .nanoseconds(Int64(seconds(duration) * 1e9))
    let samples = probe.map { probe in
        let loop = group.next()
        return (
            loop.scheduleTask(deadline: start) { probe.sample() }.futureResult,
            loop.scheduleTask(deadline: deadline) { probe.sample() }.futureResult
        )
    }
    let walSamples = wal.map { wal in
        let loop = group.next()
        return (
            loop.flatScheduleTask(deadline: start) { loop.makeFutureWithTask { try await wal.bytes() } }.futureResult,
            loop.flatScheduleTask(deadline: deadline) { loop.makeFutureWithTask { try await wal.bytes() } }.futureResult
        )
    }
    var outcomes: [EventLoopFuture<LoadDriver.Outcome>] = []
    for state in states {
        let loop = group.next()
        let finished = loop.makePromise(of: LoadDriver.Outcome.self)
        _ = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        LoadDriver(
                            workload: workload,
                            state: state,
                            start: start,
                            deadline: deadline,
                            pace: pace,
                            finished: finished
                        )
                    )
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        outcomes.append(finished.futureResult)
    }
    var latencies: [Double] = []
    var failures = 0
    for outcome in outcomes {
        let measured = try await outcome.get()
        latencies += measured.latencies
        failures += measured.failures
    }
    latencies.sort()
    var result = LoadResult(
        requests: latencies.count,
        failures: failures,
        seconds: seconds(duration),
        latencies: latencies
    )
    if let (first, last) = samples {
        result.cpu = RowCPU(from: try await first.get(), to: try await last.get())
    }
    if let (first, last) = walSamples {
        result.walBytes = try await last.get() - first.get()
    }
    return result
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
