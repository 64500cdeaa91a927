import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// Reads Supabase's `auth.users`, `auth.identities` and `auth.mfa_factors`, as JSON (`json_agg`
/// of each table: an array of rows, or an object `{"users": […], "identities": […], "factors":
/// […]}`) or as `COPY … TO STDOUT WITH CSV HEADER` writes them. The user keeps its id; bcrypt
/// hashes are kept as they are; verified TOTP factors keep their id, name and secret (base32, as
/// GoTrue stores it), sealed by ``UserImport``. The `role` column is not read: every imported
/// user is `authenticated`, so that no row of an export can carry a role (`service_role`) into
/// its access tokens.
enum SupabaseExport {
    /// The rows of the three tables, from however many files they came in.
    struct Tables {
        var users: [ExportRecord] = []
        var identities: [ExportRecord] = []
        var factors: [ExportRecord] = []
    }

    static func records(
        users: Data,
        identities: Data?,
        factors: Data? = nil,
        options: ImportOptions
    ) throws -> [ImportRecord] {
        var tables = try rows(users)
        if let identities { tables.identities += try rows(identities).users }
        if let factors { tables.factors += try rows(factors).users }
        var identitiesByUser: [String: [ExportRecord]] = [:]
        for row in tables.identities {
            guard let userID = row.string("user_id") else { continue }
            identitiesByUser[userID.lowercased(), default: []].append(row)
        }
        var factorsByUser: [String: [ExportRecord]] = [:]
        var factorIDCounts: [UUID: Int] = [:]
        for row in tables.factors {
            if let id = row.string("id").flatMap(UUID.init(uuidString:)) { factorIDCounts[id, default: 0] += 1 }
            guard let userID = row.string("user_id") else { continue }
            factorsByUser[userID.lowercased(), default: []].append(row)
        }
        let repeatedFactorIDs = Set(factorIDCounts.filter { $0.value > 1 }.keys)
        return tables.users.enumerated().map { index, row in
            let key = row.string("id")?.lowercased() ?? ""
            var record = user(row, line: index + 1, identities: identitiesByUser[key] ?? [], options: options)
            if case .user(var candidate) = record {
                (candidate.factors, candidate.skippedFactors) = Self.factors(
                    factorsByUser[key] ?? [],
                    of: candidate,
                    repeatedIDs: repeatedFactorIDs
                )
                record = .user(candidate)
            }
            return record
        }
    }

    /// The rows of one file: a JSON array (read as users: the caller knows which table a file
    /// of its own holds), an object with `users`, `identities` and `factors`, or CSV.
    static func rows(_ data: Data) throws -> Tables {
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let document = try JSONSerialization.jsonObject(with: data)
            if let array = document as? [[String: Any]] {
                return Tables(users: array.map(ExportRecord.init))
            }
            guard let object = document as? [String: Any] else {
                throw ImportFileError(
                    "a Supabase export is a JSON array of rows or {\"users\": […], \"identities\": […], \"factors\": […]}"
                )
            }
            let record = ExportRecord(fields: object)
            return Tables(
                users: record.records("users"),
                identities: record.records("identities"),
                factors: record.records("factors")
            )
        }
        return Tables(users: try CSVTable.rows(String(decoding: data, as: UTF8.self)).map(ExportRecord.init))
    }

    /// The user's verified TOTP factors (`auth.mfa_factors` rows), and the others with the
    /// reason they are left out.
    /// `repeatedIDs`: factor ids that appear more than once in the export (none of them is kept).
    static func factors(
        _ rows: [ExportRecord],
        of candidate: ImportCandidate,
        repeatedIDs: Set<UUID> = []
    ) -> ([ImportedFactor], [ImportRefusal]) {
        var kept: [ImportedFactor] = []
        var skipped: [ImportRefusal] = []
        var names: Set<String> = []
        for row in rows {
            let label = "factor \(row.string("id")?.lowercased() ?? "?") of \(candidate.sourceID)"
            func skip(_ reason: ImportRefusal.Reason) { skipped.append(ImportRefusal(record: label, reason: reason)) }
            guard let id = row.string("id").flatMap(UUID.init(uuidString:)) else {
                skip(.missingID)
                continue
            }
            let type = row.string("factor_type") ?? ""
            guard type == "totp" else {
                skip(.unsupportedFactorType(type.isEmpty ? "none" : String(type.prefix(16))))
                continue
            }
            guard row.string("status") == "verified" else {
                skip(.unverifiedFactor)
                continue
            }
            guard let text = row.string("secret"), !text.hasPrefix("{") else {
                skip(row.string("secret") == nil ? .malformed("TOTP secret") : .encryptedFactorSecret)
                continue
            }
            guard let secret = TOTPSecret(base32: text) else {
                skip(.malformed("TOTP secret"))
                continue
            }
            guard !repeatedIDs.contains(id) else {
                skip(.duplicateID)
                continue
            }
            let name = row.string("friendly_name") ?? ""
            guard name.isEmpty || names.insert(name).inserted else {
                skip(.duplicateFactorName)
                continue
            }
            let created = row.date("created_at") ?? candidate.user.createdAt
            let record = FactorRecord(
                id: id,
                userID: candidate.user.id,
                friendlyName: name,
                isVerified: true,
                sealedSecret: nil,
                createdAt: created,
                updatedAt: row.date("updated_at") ?? created,
                lastChallengedAt: row.date("last_challenged_at")
            )
            kept.append(ImportedFactor(record: record, secret: secret))
        }
        return (kept, skipped)
    }

    static func user(_ row: ExportRecord, line: Int, identities: [ExportRecord], options: ImportOptions) -> ImportRecord
    {
        guard let text = row.string("id"), let id = UUID(uuidString: text) else {
            return .refused(ImportRefusal(record: row.string("id") ?? "user #\(line)", reason: .missingID))
        }
        let sourceID = text.lowercased()
        if row.string("deleted_at") != nil { return .refused(ImportRefusal(record: sourceID, reason: .deleted)) }
        var hash: String?
        if let stored = row.string("encrypted_password") {
            guard let bcrypt = StoredPasswordHash.bcrypt(stored) else {
                return .refused(ImportRefusal(record: sourceID, reason: .unknownHashAlgorithm(HashName.of(stored))))
            }
            hash = bcrypt
        }
        let created = row.date("created_at") ?? options.now
        let linked: [IdentityRecord] = identities.compactMap { identity in
            guard let provider = identity.string("provider"), provider != "email", provider != "phone",
                let subject = identity.string("provider_id") ?? identity.string("id")
            else { return nil }
            let data = identity.object("identity_data") ?? [:]
            let identityCreated = identity.date("created_at") ?? created
            return IdentityRecord(
                id: identity.string("provider_id") != nil
                    ? identity.string("id").flatMap(UUID.init(uuidString:)) ?? UUID.random() : UUID.random(),
                userID: id,
                provider: AuthProvider(rawValue: provider),
                subject: subject,
                email: identity.string("email")?.lowercased()
                    ?? data["email"].flatMap { if case .string(let e) = $0 { e.lowercased() } else { nil } },
                data: data,
                lastSignInAt: identity.date("last_sign_in_at"),
                createdAt: identityCreated,
                updatedAt: identity.date("updated_at") ?? identityCreated
            )
        }
        let verified = row.date("email_confirmed_at") ?? row.date("confirmed_at")
        return ImportUserBuilder.build(
            sourceID: sourceID,
            id: id,
            email: row.string("email"),
            passwordHash: hash,
            confirmedAt: verified ?? (options.trustsUnverifiedAddresses ? created : nil),
            lastSignInAt: row.date("last_sign_in_at"),
            appMetadata: row.object("raw_app_meta_data") ?? [:],
            userMetadata: row.object("raw_user_meta_data") ?? [:],
            banned: false,
            bannedUntil: row.date("banned_until"),
            isAnonymous: row.bool("is_anonymous"),
            createdAt: created,
            updatedAt: row.date("updated_at"),
            identities: linked
        )
    }
}

/// The name of a hash's scheme for a refusal, never the hash itself.
enum HashName {
    static func of(_ stored: String) -> String {
        if stored.hasPrefix("$") {
            return String(stored.dropFirst().prefix { $0 != "$" }.prefix(16))
        }
        return "unrecognized"
    }
}
