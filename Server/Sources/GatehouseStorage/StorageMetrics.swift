import Metrics

/// The storage layer's metrics (swift-metrics; exported with the server's others): how long
/// write transactions take, how many a SQLite commit carries, and where SQLite checkpoints.
package enum StorageMetrics {
    /// A write transaction's time as its caller saw it (on SQLite, including the wait for its batch).
    package static func transaction(_ database: String, duration: Duration, failed: Bool) {
        Metrics.Timer(
            label: "gatehouse_db_transaction_duration_seconds",
            dimensions: [("database", database), ("outcome", failed ? "failed" : "committed")]
        )
        .record(duration: duration)
    }

    /// How many transactions one SQLite commit carried.
    package static func groupCommitBatch(_ size: Int) {
        Recorder(label: "gatehouse_db_group_commit_batch_size", aggregate: true).record(size)
    }

    /// A SQLite checkpoint: by the checkpoint service (`background`), or by the writer inside a
    /// commit (`inline`: the service was not running, or had fallen behind).
    package static func checkpoint(inline: Bool) {
        Counter(label: "gatehouse_db_checkpoints_total", dimensions: [("where", inline ? "inline" : "background")])
            .increment()
    }
}
