import Foundation
import GatehouseCore

/// Reads Supabase's `auth.users` and `auth.identities`, as JSON (`json_agg` of each table: an
/// array of rows, or an object `{"users": […], "identities": […]}`) or as `COPY … TO STDOUT
/// WITH CSV HEADER` writes them. The user keeps its id; bcrypt hashes are kept as they are. The
/// `role` column is not read: every imported user is `authenticated`, so that no row of an
/// export can carry a role (`service_role`) into its access tokens.
enum SupabaseExport {
    static func records(users: Data, identities: Data?, options: ImportOptions) throws -> [ImportRecord] {
        var (userRows, identityRows) = try rows(users)
        if let identities { identityRows += try rows(identities).0 }
        var identitiesByUser: [String: [ExportRecord]] = [:]
        for row in identityRows {
            guard let userID = row.string("user_id") else { continue }
            identitiesByUser[userID.lowercased(), default: []].append(row)
        }
        return userRows.enumerated().map { index, row in
            user(row, line: index + 1, identities: identitiesByUser[row.string("id")?.lowercased() ?? ""] ?? [], options: options)
        }
    }

    /// The rows of one file: a JSON array, an object with `users` and `identities`, or CSV.
    static func rows(_ data: Data) throws -> ([ExportRecord], [ExportRecord]) {
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let document = try JSONSerialization.jsonObject(with: data)
            if let array = document as? [[String: Any]] {
                return (array.map(ExportRecord.init), [])
            }
            guard let object = document as? [String: Any] else {
                throw ImportFileError("a Supabase export is a JSON array of rows or {\"users\": […], \"identities\": […]}")
            }
            let record = ExportRecord(fields: object)
            return (record.records("users"), record.records("identities"))
        }
        return (try CSVTable.rows(String(decoding: data, as: UTF8.self)).map(ExportRecord.init), [])
    }

    static func user(_ row: ExportRecord, line: Int, identities: [ExportRecord], options: ImportOptions) -> ImportRecord {
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
                id: identity.string("provider_id") != nil ? identity.string("id").flatMap(UUID.init(uuidString:)) ?? UUID() : UUID(),
                userID: id,
                provider: provider,
                subject: subject,
                email: identity.string("email")?.lowercased() ?? data["email"].flatMap { if case .string(let e) = $0 { e.lowercased() } else { nil } },
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
