import Synchronization

/// The SQL texts the storage runs while a recording is on: how the index test
/// (`StatementPlanTests`) finds the statements of the request paths to `EXPLAIN` them.
/// While no recording is on, noting a statement costs one relaxed atomic load.
package enum StatementLog {
    private static let recordings = Atomic<Int>(0)
    private static let texts = Mutex<[SQLDialect: Set<String>]>([:])

    /// Called by ``SQLTransaction/query(_:_:)`` for every statement, with its storage's dialect.
    package static func note(_ sql: String, dialect: SQLDialect) {
        guard recordings.load(ordering: .relaxed) > 0, !isUnrecorded else { return }
        texts.withLock { _ = $0[dialect, default: []].insert(sql) }
    }

    /// Whether the statements of this task (and the tasks it starts) are left out of a
    /// recording: a test's own checks that read the database directly, while the index test
    /// records the request paths of the whole process.
    @TaskLocal package static var isUnrecorded = false

    /// Runs `body` with the recording on and returns every distinct statement text the
    /// storages of `dialect` ran meanwhile (by any caller in the process: other tests' storages
    /// of the other dialect, running at the same time, are left out).
    package static func recording(_ dialect: SQLDialect, _ body: () async throws -> Void) async rethrows -> Set<String> {
        texts.withLock { $0 = [:] }
        recordings.add(1, ordering: .relaxed)
        defer { recordings.subtract(1, ordering: .relaxed) }
        try await body()
        return texts.withLock { $0[dialect] ?? [] }
    }
}
