import Foundation
import GatehouseStorage
import VaporCSQLite

/// Issue 35: the refresh's statements on SQLite alone (``RefreshStatements``: the read of the
/// session with its user, then one transaction with the rotation and its audit line), through
/// SQLite's C API on one thread, with the server's settings (``SQLiteStorage/writerPragmas``),
/// on the database file as it is. ``ScaleBench`` runs it after each half's rows, on the sessions
/// its refresh rows made: the CPU the statements alone cost per refresh, on the nearly empty
/// database and on the seeded one, is what the database's size costs a refresh without the
/// server in between.
enum SQLiteRefreshStatements {
    /// What one run measured.
    struct Run {
        var refreshes: Int
        /// The thread's CPU (user and system, `/proc/thread-self/stat`, in ticks of 10 ms) over
        /// the run, in seconds.
        var cpuSeconds: Double

        var microsecondsPerRefresh: Double { cpuSeconds / Double(max(refreshes, 1)) * 1e6 }
    }

    /// Refreshes for `duration`, in turn, of the `sessions` newest sessions of the database at
    /// `path` (the server that made them stopped or idle). Fails on a session not found or not
    /// rotated: every refresh counted read and rotated its session.
    static func run(path: String, sessions count: Int, duration: Duration) throws -> Run {
        let database = try SeedDatabase(path: path)
        defer { database.close() }
        for pragma in SQLiteStorage.writerPragmas { try database.execute(pragma) }
        let newest = try database.prepare("SELECT id FROM sessions ORDER BY rowid DESC LIMIT ?")
        let sessions = try newest.rows([.integer(count)]).map { $0[0] }
        newest.finalize()
        guard !sessions.isEmpty else { throw LoadError.unexpected("no sessions to refresh in \(path)") }
        let read = try database.prepare(RefreshStatements.sqliteRead)
        let rotation = try database.prepare(RefreshStatements.sqliteRotation)
        let audit = try database.prepare(RefreshStatements.sqliteAudit)
        defer { [read, rotation, audit].forEach { $0.finalize() } }
        let counterColumn = try column("s_counter", of: read)
        let userColumn = try column("s_user_id", of: read)

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        let start = ProcessCPU.threadSeconds()
        var refreshes = 0
        while clock.now < deadline {
            let session = sessions[refreshes % sessions.count]
            guard
                let (counter, userID) = try read.first(
                    [.text(session)],
                    { row in
                        (
                            sqlite_nio_sqlite3_column_int64(row, counterColumn),
                            sqlite_nio_sqlite3_column_text(row, userColumn).map { String(cString: $0) } ?? ""
                        )
                    }
                )
            else { throw LoadError.unexpected("session \(session) not found") }
            let now = Date().timeIntervalSince1970
            try database.execute("BEGIN IMMEDIATE")
            guard
                try rotation.first(
                    [
                        .real(now), .real(now), .text("127.0.0.1"), .real((now / 86_400).rounded(.down) * 86_400),
                        .text(session), .integer(Int(counter)),
                    ],
                    { _ in true }
                ) != nil
            else { throw LoadError.unexpected("session \(session) not rotated") }
            try audit.run([.real(now), .text("token_refreshed"), .text(userID), .text("127.0.0.1"), .null, .null])
            try database.execute("COMMIT")
            refreshes += 1
        }
        return Run(refreshes: refreshes, cpuSeconds: ProcessCPU.threadSeconds() - start)
    }

    /// The index of the column `name` of `statement`'s rows.
    private static func column(_ name: String, of statement: SeedDatabase.Statement) throws -> Int32 {
        for index in 0..<sqlite_nio_sqlite3_column_count(statement.raw)
        where String(cString: sqlite_nio_sqlite3_column_name(statement.raw, index)) == name {
            return index
        }
        throw LoadError.unexpected("no column \(name) in the refresh's read")
    }
}
