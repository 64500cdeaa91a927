import Foundation
import GatehouseStorage

/// Where a Firebase project's hash parameters wait until every imported user has signed in
/// once: the `import_hash_keys` row, sealed under the server secret (AES-256-GCM under an
/// HKDF-derived key, as signing keys and factor secrets are), so that the database alone
/// verifies no password. `gatehouse-server import forget-firebase-key` deletes the row.
public struct FirebaseHashKeyStore: Sendable {
    static let scheme = "firebase-scrypt"
    let storage: any AuthStorage
    let vault: SigningKeyVault

    /// Seals and keeps `parameters` (replacing any kept before).
    func keep(_ parameters: FirebaseHashParameters, at now: Date) async throws {
        let sealed = try vault.seal(
            String(decoding: try JSONEncoder().encode(parameters), as: UTF8.self),
            kid: Self.label
        )
        try await storage.transaction { tx in
            try await tx.storeImportHashKey(scheme: Self.scheme, sealed: sealed, at: now)
        }
    }

    /// The kept parameters, or `nil` when none are (never imported, or forgotten).
    ///
    /// - Throws: when the row was sealed under another server secret or altered.
    func load() async throws -> FirebaseHashParameters? {
        guard let sealed = try await storage.read({ try await $0.importHashKey(scheme: Self.scheme) }) else {
            return nil
        }
        guard SigningKeyVault.isSealed(sealed) else { throw SigningKeyVault.SealingError.wrongSecret(kid: Self.label) }
        return try JSONDecoder().decode(
            FirebaseHashParameters.self,
            from: Data(try vault.open(sealed, kid: Self.label).utf8)
        )
    }

    /// Deletes the kept parameters; returns whether there were any.
    func forget() async throws -> Bool {
        try await storage.transaction { tx in try await tx.deleteImportHashKey(scheme: Self.scheme) }
    }

    private static let label = "import-hash:firebase-scrypt"
}
