import Foundation

/// The statements of `gatehouse-server import`: set-wise reads and multi-row inserts, so that a
/// batch of a thousand users costs a handful of round trips on PostgreSQL, and the sealed hash
/// parameters of an imported scheme.
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
        var found: Set<UUID> = []
        for chunk in Self.chunks(ids) {
            for row in try await query("SELECT id FROM users WHERE id IN (\(Self.marks(chunk.count)))", chunk.map { .text($0.key) }) {
                if let id = row.column("id")?.string.flatMap(UUID.init(text:)) { found.insert(id) }
            }
        }
        return found
    }

    func existingEmails(_ emails: [String]) async throws -> Set<String> {
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

    func existingIdentities(_ keys: [IdentityKey]) async throws -> Set<IdentityKey> {
        var found: Set<IdentityKey> = []
        for chunk in Self.chunks(keys) {
            let pairs = Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
            for row in try await query(
                "SELECT provider, provider_id FROM identities WHERE (provider, provider_id) IN (VALUES \(pairs))",
                chunk.flatMap { [.text($0.provider), .text($0.subject)] }
            ) {
                if let provider = row.column("provider")?.string, let subject = row.column("provider_id")?.string {
                    found.insert(IdentityKey(provider: provider, subject: subject))
                }
            }
        }
        return found
    }

    func insertUsers(_ users: [UserRecord]) async throws {
        let row = "(" + Self.marks(17) + ")"
        for chunk in Self.chunks(users, size: 400) {
            _ = try await query(
                "INSERT INTO users (\(Self.userColumns)) VALUES \(Array(repeating: row, count: chunk.count).joined(separator: ", "))",
                chunk.flatMap(userBinds)
            )
        }
        let identities = users.flatMap(\.identities)
        let identityRow = "(" + Self.marks(9) + ")"
        for chunk in Self.chunks(identities, size: 400) {
            _ = try await query(
                "INSERT INTO identities (\(Self.identityColumns)) VALUES "
                    + Array(repeating: identityRow, count: chunk.count).joined(separator: ", "),
                chunk.flatMap(Self.identityBinds)
            )
        }
        let factors = users.flatMap(\.factors)
        let factorRow = "(" + Self.marks(11) + ")"
        for chunk in Self.chunks(factors, size: 400) {
            _ = try await query(
                "INSERT INTO mfa_factors (\(Self.factorColumns)) VALUES "
                    + Array(repeating: factorRow, count: chunk.count).joined(separator: ", "),
                chunk.flatMap(Self.factorBinds)
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
