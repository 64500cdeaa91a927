package import Foundation
import GatehouseServerSupport

/// The statements of `gatehouse-server import`: set-wise reads and multi-row inserts, so that a
/// batch of a thousand users costs a handful of round trips on PostgreSQL, and the sealed hash
/// parameters of an imported scheme.
extension SQLTransaction {
    package func importHashKey(scheme: String) async throws -> String? {
        try await query("SELECT sealed_parameters FROM import_hash_keys WHERE scheme = ?", [.text(scheme)])
            .first?.column("sealed_parameters")?.string
    }

    package func storeImportHashKey(scheme: String, sealed: String, at now: Date) async throws {
        _ = try await query(
            """
            INSERT INTO import_hash_keys (scheme, sealed_parameters, created_at) VALUES (?, ?, ?)
            ON CONFLICT (scheme) DO UPDATE SET sealed_parameters = excluded.sealed_parameters
            """,
            [.text(scheme), .text(sealed), .float(now.timeIntervalSince1970)]
        )
    }

    package func deleteImportHashKey(scheme: String) async throws -> Bool {
        !(try await query("DELETE FROM import_hash_keys WHERE scheme = ? RETURNING scheme", [.text(scheme)]).isEmpty)
    }

    package func existingUserIDs(_ ids: [UUID]) async throws -> Set<UUID> {
        var found: Set<UUID> = []
        for chunk in Self.chunks(ids) {
            for row in try await query("SELECT id FROM users WHERE id IN (\(Self.marks(chunk.count)))", chunk.map { .text($0.key) }) {
                if let id = row.column("id")?.string.flatMap(UUID.init(text:)) { found.insert(id) }
            }
        }
        return found
    }

    package func existingEmails(_ emails: [String]) async throws -> Set<String> {
        var found: Set<String> = []
        for chunk in Self.chunks(emails) {
            for row in try await query(
                "SELECT email FROM users WHERE email IN (\(Self.marks(chunk.count)))",
                chunk.map { .text($0.lowercased()) }
            ) {
                if let email = row.column("email")?.string { found.insert(email) }
            }
        }
        return found
    }

    package func existingIdentities(_ keys: [IdentityKey]) async throws -> Set<IdentityKey> {
        var found: Set<IdentityKey> = []
        for chunk in Self.chunks(keys) {
            let pairs = Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
            for row in try await query(
                "SELECT provider, provider_id FROM identities WHERE (provider, provider_id) IN (VALUES \(pairs))",
                chunk.flatMap { [.text($0.provider.rawValue), .text($0.subject)] }
            ) {
                if let provider = row.column("provider")?.string, let subject = row.column("provider_id")?.string {
                    found.insert(IdentityKey(provider: AuthProvider(rawValue: provider), subject: subject))
                }
            }
        }
        return found
    }

    package func insertUsers(_ users: [UserRecord]) async throws {
        try await insertRows(users, into: "users", columns: Self.userColumns, width: 17, binds: userBinds)
        try await insertRows(
            users.flatMap(\.identities),
            into: "identities",
            columns: Self.identityColumns,
            width: 9,
            binds: Self.identityBinds
        )
        try await insertRows(
            users.flatMap(\.factors),
            into: "mfa_factors",
            columns: Self.factorColumns,
            width: 11,
            binds: Self.factorBinds
        )
    }

    /// Multi-row `INSERT`s of `items`, 400 rows (`width` values each) to a statement.
    private func insertRows<Item>(
        _ items: [Item],
        into table: String,
        columns: String,
        width: Int,
        binds: (Item) -> [SQLValue]
    ) async throws {
        let row = "(" + Self.marks(width) + ")"
        for chunk in Self.chunks(items, size: 400) {
            _ = try await query(
                "INSERT INTO \(table) (\(columns)) VALUES " + Array(repeating: row, count: chunk.count).joined(separator: ", "),
                chunk.flatMap(binds)
            )
        }
    }

    /// Slices of at most `size`, within SQLite's and PostgreSQL's limits on binds.
    private static func chunks<Element>(_ items: [Element], size: Int = 500) -> [ArraySlice<Element>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
