import Foundation

extension SQLTransaction {
    /// Whether the schema lacks a migration this server knows, or (PostgreSQL) another instance
    /// holds the migration lock right now: either way the server is not ready.
    package func migrationsPending() async throws -> Bool {
        if executor.dialect == .postgres {
            // In a read (no transaction) the lock, when free, is released at the statement's end.
            let rows = try await query(
                "SELECT CASE WHEN pg_try_advisory_xact_lock(\(PostgresStorage.migrationLock)) THEN 1 ELSE 0 END AS free"
            )
            if rows.first?.column("free")?.integer == 0 { return true }
        }
        let applied = Set(
            try await query("SELECT name FROM schema_migrations").compactMap { $0.column("name")?.string }
        )
        return !Migrations.all.allSatisfy { applied.contains($0.name) }
    }
}

extension SQLTransaction {
    /// How many sessions the database holds (the active-sessions gauge).
    package func sessionCount() async throws -> Int {
        try await query("SELECT COUNT(*) AS count FROM sessions").first?.column("count")?.integer ?? 0
    }
}
