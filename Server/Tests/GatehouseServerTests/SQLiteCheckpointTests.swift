import Foundation
import GatehouseProcessTesting
import GatehouseStorage
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import GatehouseServer

/// SQLite's write-ahead log is copied into the database file by ``SQLiteCheckpointer``, off the
/// commit path: the log stays bounded whether the service runs or not, a graceful shutdown
/// empties it, and no commit is lost on the way.
@Suite("SQLite checkpoints off the commit path")
struct SQLiteCheckpointTests {
    /// Small limits, so that a bound is proved on a few megabytes of log: the standard ones
    /// (64 MiB) would take hundreds of megabytes of fsynced writes, which slow every other test.
    private static let limits = SQLiteCheckpointer.Limits(wakeEvery: 25, threshold: 100, inlineLimit: 400)
    /// Audit lines of 3,000 bytes: 16 writers × 200 lines write about 3,200 pages of log
    /// without checkpoints, four times what the service's bound lets it hold.
    private static let writers = 16
    private static let linesPerWriter = 200
    private static let detail = String(repeating: "x", count: 3000)
    /// What the commits around a checkpoint may add to the log: a batch holds at most a line per
    /// writer, each a page of its own, and the index and interior pages they touch (the log
    /// passed its limit by up to 51 pages); eight pages a writer.
    private static let batchPages = 8 * writers

    @Test func theServiceKeepsTheLogBoundedAndAShutdownEmptiesIt() async throws {
        let path = TestDatabase.scratchSQLitePath("checkpoint")
        defer { TestDatabase.removeSQLiteFiles(at: path) }
        let storage = try await Self.open(path)
        let checkpointer = try #require(storage.checkpointer)
        let group = ServiceGroup(
            configuration: .init(services: [checkpointer], logger: Logger(label: "test.checkpoint"))
        )
        let service = Task { try await group.run() }
        let pageSize = try #require(Int(try await storage.pragma("page_size") ?? ""))

        let largest = try await Self.write(to: storage, path: path)
        // The writer takes over from the service's inline limit on, after the commit that
        // crossed it: the bound allows the commits in flight their pages (``batchPages``).
        // While a pass of the service is under way the writer's own checkpoint finds the log
        // busy and tries again at the next commit, so the log may pass the limit by what is
        // committed during one pass (672 pages against a limit of 400 in one CI run): twice
        // the limit, still far below the 29 MB an unbounded log reaches here.
        let bound = Self.logSize(pages: 2 * Self.limits.inlineLimit + Self.batchPages, of: pageSize)
        #expect(largest <= bound, "the log reached \(largest) bytes; the bound is \(bound)")
        #expect(
            largest > Self.logSize(pages: Self.limits.threshold, of: pageSize),
            "the writes never filled the log"
        )
        #expect(checkpointer.checkpoints.background > 0, "the service never checkpointed")

        await group.triggerGracefulShutdown()
        try await Deadline.run(.seconds(30)) { try await service.value }
        #expect(Self.size(of: path + "-wal") == 0, "the shutdown's checkpoint empties the log")
        try await storage.close()
        try Self.expectEveryLine(in: path)
    }

    @Test func withoutTheServiceTheWriterCheckpointsAsSQLiteWould() async throws {
        let path = TestDatabase.scratchSQLitePath("checkpoint")
        defer { TestDatabase.removeSQLiteFiles(at: path) }
        let storage = try await Self.open(path)
        let checkpointer = try #require(storage.checkpointer)
        let pageSize = try #require(Int(try await storage.pragma("page_size") ?? ""))

        let largest = try await Self.write(to: storage, path: path)
        let bound = Self.logSize(pages: Self.limits.threshold + Self.batchPages, of: pageSize)
        #expect(largest <= bound, "the log reached \(largest) bytes; the bound is \(bound)")
        #expect(checkpointer.checkpoints.background == 0)
        #expect(checkpointer.checkpoints.inline > 0, "the writer never checkpointed")
        try await storage.close()
        try Self.expectEveryLine(in: path)
    }

    /// The server process killed (SIGKILL) while anonymous sign-ups pour in and its
    /// checkpoint service copies the log: every sign-up that was answered is in the database
    /// when it is opened again, and the database is whole.
    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite only"))
    func aKilledServerKeepsEverySignUpItAnswered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-checkpoint-kill-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("auth.sqlite").path
        let server = try await ServerProcess(
            environment: [
                "GATEHOUSE_DATABASE_URL": "sqlite://\(path)",
                "GATEHOUSE_SERVER_SECRET": "checkpoint-kill-secret-\(directory.lastPathComponent)",
                "GATEHOUSE_RATE_LIMIT_ANONYMOUS": "1000000",
            ],
            logDirectory: directory
        )
        let answered = AnsweredIDs()
        let load = Task {
            await withDiscardingTaskGroup { group in
                for _ in 0..<16 {
                    group.addTask {
                        while !Task.isCancelled {
                            let answer = await HTTPClient(timeout: .seconds(30)).send(
                                "POST",
                                server.url.appendingPathComponent("signup"),
                                json: "{}"
                            )
                            guard answer.status == 200 else { continue }
                            if let id = (answer.json["user"] as? [String: Any])?["id"] as? String {
                                answered.ids.withLock { $0.append(id.lowercased()) }
                            }
                        }
                    }
                }
            }
        }
        // The log has grown past twice what wakes the service (a checkpoint has been asked for)
        // and sign-ups still come: then the kill.
        let filled = Self.logSize(pages: 2 * SQLiteCheckpointer.wakeEvery, of: 4096)
        let deadline = ContinuousClock.now + .seconds(90)
        while Self.size(of: path + "-wal") < filled || answered.ids.withLock({ $0.count }) < 500 {
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        await server.kill()
        load.cancel()
        await load.value
        let ids = answered.ids.withLock { $0 }
        #expect(Self.size(of: path + "-wal") >= filled, "the log never reached what wakes the service")
        #expect(ids.count >= 500, "only \(ids.count) sign-ups answered")

        let handle = try SQLiteHandle(path: path)
        defer { handle.close() }
        #expect(try handle.rows("PRAGMA integrity_check").first?.values.first == .text("ok"))
        let stored = Set(try handle.rows("SELECT id FROM users").compactMap { $0.column("id")?.string?.lowercased() })
        let lost = ids.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(ids.count) answered sign-ups are missing")
    }

    // MARK: - Helpers

    private static func open(_ path: String) async throws -> SQLiteStorage {
        let storage = try await SQLiteStorage.open(
            .sqliteFile(path),
            checkpoints: limits,
            logger: Logger(label: "test.checkpoint")
        )
        try await storage.migrate()
        return storage
    }

    /// Appends every writer's lines, each in a transaction of its own, the writers side by side;
    /// returns the largest size of the log seen after a commit.
    private static func write(to storage: SQLiteStorage, path: String) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var largest = 0
                    for line in 0..<linesPerWriter {
                        try await storage.transaction {
                            try await $0.appendAudit(
                                AuditEntry(at: Date(), action: .login, ip: "\(writer).\(line)", detail: detail)
                            )
                        }
                        largest = max(largest, size(of: path + "-wal"))
                    }
                    return largest
                }
            }
            return try await group.reduce(0, max)
        }
    }

    /// Every line written is in the database file, read back on a connection of its own.
    private static func expectEveryLine(in path: String) throws {
        let handle = try SQLiteHandle(path: path)
        defer { handle.close() }
        let count = try handle.rows("SELECT count(*) AS c FROM audit_log WHERE length(detail) = 3000")
        #expect(count.first?.column("c") == .integer(writers * linesPerWriter))
    }

    /// A log of `pages` pages: its 32-byte header, then a 24-byte header before each page.
    private static func logSize(pages: Int, of pageSize: Int) -> Int {
        32 + pages * (24 + pageSize)
    }

    /// The file's size, 0 while it does not exist.
    private static func size(of file: String) -> Int {
        SQLiteOutageTests.size(of: file) ?? 0
    }
}

/// The ids of the sign-ups the server answered, from the load's tasks.
private final class AnsweredIDs: Sendable {
    let ids = Mutex<[String]>([])
}
