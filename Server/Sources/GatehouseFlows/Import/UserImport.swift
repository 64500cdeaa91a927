public import Foundation
import GatehouseServerSupport
public import GatehouseStorage

/// `gatehouse-server import`: reads an export of `source` and writes its users into the
/// database, keeping Firebase's hash parameters sealed when its users bring scrypt hashes.
///
/// ```swift
/// var options = ImportOptions()
/// options.dryRun = true
/// let report = try await UserImport.run(.auth0, file: url, database: database, options: options)
/// ```
public enum UserImport {
    /// Reads and imports one export.
    ///
    /// - Parameters:
    ///   - identities: Supabase's `auth.identities`, when exported to a file of its own.
    ///   - factors: Supabase's `auth.mfa_factors`, when exported to a file of its own: verified
    ///     TOTP factors are imported with their secrets sealed under the server secret.
    ///   - firebase: The Firebase project's hash parameters; needed (here or kept from an
    ///     earlier run) when the export holds password hashes.
    ///   - progress: Called after each batch with the records done and the total.
    /// - Throws: ``ImportFileError`` when the export cannot be read or the parameters are missing
    ///   or differ from the kept ones.
    public static func run(
        _ source: ImportSource,
        file: URL,
        identities: URL? = nil,
        factors: URL? = nil,
        firebase: FirebaseHashParameters? = nil,
        database: ServerDatabase,
        options: ImportOptions,
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> ImportReport {
        let data = try Data(contentsOf: file)
        var records: [ImportRecord]
        switch source {
        case .firebase: records = try FirebaseExport.records(from: data, options: options)
        case .supabase:
            records = try SupabaseExport.records(
                users: data,
                identities: try identities.map { try Data(contentsOf: $0) },
                factors: try factors.map { try Data(contentsOf: $0) },
                options: options
            )
        case .auth0: records = try Auth0Export.records(from: data, options: options)
        }
        let vault = SigningKeyVault(secret: try database.serverSecret())
        let keys = FirebaseHashKeyStore(storage: database.storage, vault: vault)
        let sealing = FactorSecretSealing(vault: vault)
        records = try records.map { record in
            guard case .user(let candidate) = record, !candidate.factors.isEmpty else { return record }
            return .user(try candidate.sealingFactors(with: sealing))
        }
        let bringsScrypt = records.contains {
            if case .user(let candidate) = $0, let hash = candidate.user.passwordHash {
                return hash.hasPrefix(StoredPasswordHash.firebasePrefix)
            }
            return false
        }
        if bringsScrypt, !options.dryRun {
            let kept = try await keys.load()
            switch (firebase, kept) {
            case (nil, nil):
                throw ImportFileError(
                    "the export holds Firebase password hashes: give the project's hash parameters "
                        + "(--hash-config FILE or GATEHOUSE_FIREBASE_SIGNER_KEY and its companions)"
                )
            case (let given?, let kept?) where given != kept:
                throw ImportFileError(
                    "other Firebase hash parameters are kept from an earlier import; users of one project "
                        + "only can wait for their first sign-in (`import forget-firebase-key` drops the kept ones)"
                )
            case (let given?, nil):
                try await keys.keep(given, at: options.now)
            default:
                break
            }
        }
        return try await UserImporter(storage: database.storage, options: options).run(records, progress: progress)
    }

    /// The user imported from `source` under its old id there (`firebase_uid`, `auth0_user_id`,
    /// or a Supabase id), or `nil` when there is none.
    public static func user(
        from source: ImportSource,
        sourceID: String,
        database: ServerDatabase
    ) async throws -> UserRecord? {
        let id =
            source == .supabase
            ? UUID(uuidString: sourceID) : ImportCandidate.derivedID(source: source, sourceID: sourceID)
        guard let id else { return nil }
        return try await database.storage.read { try await $0.user(id: id) }
    }

    /// Drops the kept Firebase hash parameters: users not yet rehashed can no longer sign in with
    /// their password (a reset still works). Returns whether any were kept.
    public static func forgetFirebaseKey(database: ServerDatabase) async throws -> Bool {
        try await FirebaseHashKeyStore(
            storage: database.storage,
            vault: SigningKeyVault(secret: try database.serverSecret())
        )
        .forget()
    }
}
