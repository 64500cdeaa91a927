import Dispatch
import GatehouseServerSupport
package import Logging
import ServiceLifecycle
import Synchronization
import VaporCSQLite

/// Moves the write-ahead log into the database file off the commit path: a service of the
/// application with a connection and a thread of its own.
///
/// SQLite's own rule checkpoints on the writing connection, inside the commit that takes the
/// log past 1,000 pages: that commit, and the batch waiting behind it, pay for copying the
/// pages and an fsync of the database file (issue 35 measured 13–20 % of the anonymous
/// sign-up's rate on an empty database, 6–11 % at a million users, and half its p99 at 16
/// connections, against a build that never checkpointed). Here the writer's commit only
/// reports the log's length (SQLite's WAL hook, ``observe(walPages:on:database:)``); each
/// ``wakeEvery`` pages that no checkpoint has copied wake this service, which checkpoints
/// (`PASSIVE`: it never waits for, nor blocks, the writer or a reader).
///
/// The log stays bounded whatever happens: while the service does not run (a tool that opens
/// the storage, a test, the shutdown) the writer checkpoints at ``threshold`` as SQLite would;
/// while it runs but falls behind (a checkpoint runs during writes, so under a steady load the
/// log may never be all copied at a moment the writer could start it over), the writer
/// checkpoints itself at ``inlineLimit``, which then costs only what the service has not yet
/// copied. At a graceful shutdown the service copies everything and empties the log
/// (`TRUNCATE`).
package final class SQLiteCheckpointer: Service, Sendable {
    /// The log's length (in pages) from which the writer checkpoints itself while the service
    /// does not run: SQLite's default `wal_autocheckpoint`.
    package static let threshold = 1000
    /// The pages not yet copied that wake the service (1 MiB of 4 KiB pages). Small passes
    /// keep each fsync of the database file short, and the writer's commits wait less behind
    /// it on the disk: at a million users (issue 35, two runs of the anonymous sign-up at 16 /
    /// 64 connections against SQLite's own rule) the seeded rate rose 29–45 % and its p99 fell
    /// from 16.0–17.5 / 27.8–32.1 ms to 8.5–10.9 / 18.1–20.3 ms; waking at 1,000 pages gained
    /// rate too but raised the seeded p99, and at 100 pages the empty database's CPU rose.
    package static let wakeEvery = 250
    /// The log's length from which the writer checkpoints itself although the service runs
    /// (64 MiB of 4 KiB pages): 16,000 pages gained more rate than 4,000 in three runs of the
    /// anonymous sign-up on the empty database, with a lower p99 at 16 connections.
    package static let inlineLimit = 16 * threshold

    /// The log lengths, in pages, that decide when and where a checkpoint runs: ``standard``
    /// in the server, smaller in tests (a bound proved on a few megabytes of log, not hundreds).
    package struct Limits: Sendable {
        /// Pages not yet copied that wake the service (``wakeEvery``).
        package var wakeEvery: Int
        /// The log's length from which the writer checkpoints while the service does not run
        /// (``threshold``).
        package var threshold: Int
        /// The log's length from which the writer checkpoints although the service runs
        /// (``inlineLimit``).
        package var inlineLimit: Int

        package init(wakeEvery: Int, threshold: Int, inlineLimit: Int) {
            self.wakeEvery = wakeEvery
            self.threshold = threshold
            self.inlineLimit = inlineLimit
        }

        package static let standard = Limits(
            wakeEvery: SQLiteCheckpointer.wakeEvery,
            threshold: SQLiteCheckpointer.threshold,
            inlineLimit: SQLiteCheckpointer.inlineLimit
        )
    }

    /// The limits this service and its writer follow.
    package let limits: Limits

    /// How many checkpoints ran where: on this service's connection (`background`), or on the
    /// writer's (`inline`: the service was not running or had fallen behind).
    package struct Counts: Sendable, Equatable {
        package var background = 0
        package var inline = 0
    }

    private let connection: Mutex<SQLiteHandle?>
    private let queue = DispatchQueue(label: "gatehouse.sqlite.checkpoint")
    private let wakeup = Wakeup()
    private let running = Atomic<Bool>(false)
    /// The log's length the writer reported with its last commit.
    private let walPages = Atomic<Int>(0)
    /// How much of the log the service's last checkpoint found in the database file (0 once
    /// the writer has started the log over).
    private let copiedPages = Atomic<Int>(0)
    private let counts = Mutex(Counts())
    private let logger: Logger

    /// Opens the service's own connection to the database file at `path`.
    package init(path: String, limits: Limits = .standard, logger: Logger) throws {
        let handle = try SQLiteHandle(path: path)
        do {
            // The final `TRUNCATE` waits this long for a writer or reader still at work.
            try handle.execute("PRAGMA busy_timeout=5000")
        } catch {
            handle.close()
            throw error
        }
        connection = Mutex(handle)
        self.limits = limits
        self.logger = logger
    }

    /// The checkpoints run so far.
    package var checkpoints: Counts {
        counts.withLock { $0 }
    }

    /// Checkpoints whenever the writer's log holds ``wakeEvery`` pages more than the last
    /// checkpoint copied, until a graceful shutdown; then copies the whole log and empties it.
    package func run() async {
        running.store(true, ordering: .sequentiallyConsistent)
        await wakeup.loop(every: .seconds(5)) {
            guard uncopiedPages >= limits.wakeEvery else { return }
            guard let outcome = await checkpoint("PASSIVE") else { return }
            counts.withLock { $0.background += 1 }
            StorageMetrics.checkpoint(inline: false)
            copiedPages.store(outcome.copied, ordering: .relaxed)
        }
        // From here the writer checkpoints itself again, then the log is emptied.
        running.store(false, ordering: .sequentiallyConsistent)
        if await checkpoint("TRUNCATE") != nil {
            counts.withLock { $0.background += 1 }
        }
    }

    /// The pages of the log that no checkpoint has copied yet, as far as this service knows.
    private var uncopiedPages: Int {
        max(0, walPages.load(ordering: .relaxed) - copiedPages.load(ordering: .relaxed))
    }

    /// Closes the service's connection (after ``run()`` has returned, or if it never ran).
    package func close() {
        connection.withLock { handle in
            handle?.close()
            handle = nil
        }
    }

    /// Called by the writer's WAL hook after each commit, on the writer's thread, with the log's
    /// length: wakes the service, or checkpoints on the writer's connection when the service
    /// is not running or has fallen ``inlineLimit`` pages behind.
    /// - Returns: SQLite's status for the hook (always `SQLITE_OK`: a commit has happened, and a
    ///   checkpoint that fails is tried again at the next).
    package func observe(walPages pages: Int, on writer: OpaquePointer?, database: UnsafePointer<CChar>?) -> Int32 {
        // A shorter log than the last commit's: the writer has started it over.
        if walPages.exchange(pages, ordering: .relaxed) > pages { copiedPages.store(0, ordering: .relaxed) }
        if running.load(ordering: .sequentiallyConsistent), pages < limits.inlineLimit {
            // Woken once per `wakeEvery` pages not yet copied, not at every commit: each
            // checkpoint ends with an fsync of the database file.
            if uncopiedPages >= limits.wakeEvery { wakeup.signal() }
            return SQLITE_OK
        }
        guard pages >= limits.threshold else { return SQLITE_OK }
        // What SQLite's own hook does (`sqlite3WalDefaultHook`). While the service copies,
        // this finds the log busy and returns at once: the next commit tries again.
        if sqlite_nio_sqlite3_wal_checkpoint_v2(writer, database, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK {
            counts.withLock { $0.inline += 1 }
            StorageMetrics.checkpoint(inline: true)
        }
        return SQLITE_OK
    }

    /// What a checkpoint found: the log's length and how much of it is in the database file.
    private struct Outcome {
        var pages: Int
        var copied: Int
    }

    /// Runs `PRAGMA wal_checkpoint(mode)` on the service's thread; `nil` when it failed (logged).
    private func checkpoint(_ mode: String) async -> Outcome? {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.checkpointNow(mode))
            }
        }
    }

    private func checkpointNow(_ mode: String) -> Outcome? {
        connection.withLock { handle -> Outcome? in
            guard let handle else { return nil }
            do {
                // One row: busy (0 or 1), the log's length, the pages copied.
                let row = try handle.rows("PRAGMA wal_checkpoint(\(mode))").first
                guard case .integer(let pages)? = row?.values[safe: 1],
                    case .integer(let copied)? = row?.values[safe: 2]
                else { return nil }
                return Outcome(pages: pages, copied: copied)
            } catch {
                logger.warning(
                    "SQLite checkpoint failed; the writer's next commits try again",
                    metadata: ["mode": "\(mode)", "error": "\(error)"]
                )
                return nil
            }
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
