import Foundation

extension SQLTransaction {
    func importHashKey(scheme: String) async throws -> String? {
        try await query("SELECT sealed_parameters FROM import_hash_keys WHERE scheme = ?", [.text(scheme)])
            .first?.column("sealed_parameters")?.string
    }

    func storeImportHashKey(scheme: String, sealed: String, at now: Date) async throws {
        _ = try await query(
            """
            INSERT INTO import_hash_keys (scheme, sealed_parameters, created_at) VALUES (?, ?, ?)
            ON CONFLICT (scheme) DO UPDATE SET sealed_parameters = excluded.sealed_parameters
            """,
            [.text(scheme), .text(sealed), .float(now.timeIntervalSince1970)]
        )
    }

    func deleteImportHashKey(scheme: String) async throws -> Bool {
        !(try await query("DELETE FROM import_hash_keys WHERE scheme = ? RETURNING scheme", [.text(scheme)]).isEmpty)
    }

    func existingUserIDs(_ ids: [UUID]) async throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        var found: Set<UUID> = []
        // Chunks within SQLite's and PostgreSQL's bind limits.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(start + 500, ids.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            for row in try await query("SELECT id FROM users WHERE id IN (\(marks))", chunk.map { .text($0.key) }) {
                if let id = row.column("id")?.string.flatMap(UUID.init(text:)) { found.insert(id) }
            }
        }
        return found
    }
}
