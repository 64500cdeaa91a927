import Foundation
import GatehouseCore
import GatehouseStorage

/// Reads Auth0's bulk user export (newline-delimited JSON: `user_id`, `email`,
/// `email_verified`, `name`, `picture`, `created_at`, `last_login`, `blocked`, `identities`,
/// `app_metadata`, `user_metadata`) and the password-hash export Auth0 support provides (the
/// same lines with `_id.$oid` and `passwordHash`). A hash may also come as the import format's
/// `custom_password_hash: {algorithm, hash: {value}}`; only bcrypt is accepted.
enum Auth0Export {
    static func records(from data: Data, options: ImportOptions) throws -> [ImportRecord] {
        var records: [ImportRecord] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
            guard let fields = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                records.append(.refused(ImportRefusal(record: "line \(index + 1)", reason: .malformed("JSON line"))))
                continue
            }
            records.append(user(ExportRecord(fields: fields), line: index + 1, options: options))
        }
        return records
    }

    static func user(_ record: ExportRecord, line: Int, options: ImportOptions) -> ImportRecord {
        let userID =
            record.string("user_id") ?? record.string("Id")
            ?? record.record("_id")?.string("$oid").map { "auth0|" + $0 }
        guard let userID else { return .refused(ImportRefusal(record: "line \(line)", reason: .missingID)) }
        let refuse = { (reason: ImportRefusal.Reason) in
            ImportRecord.refused(ImportRefusal(record: userID, reason: reason))
        }
        let id = ImportCandidate.derivedID(source: .auth0, sourceID: userID)
        var hash: String?
        if let custom = record.record("custom_password_hash") {
            let algorithm = custom.string("algorithm") ?? "unnamed"
            guard algorithm == "bcrypt", let value = custom.record("hash")?.string("value"),
                let bcrypt = StoredPasswordHash.bcrypt(value)
            else { return refuse(.unknownHashAlgorithm(algorithm)) }
            hash = bcrypt
        } else if let stored = record.string("passwordHash") ?? record.string("password_hash") {
            guard let bcrypt = StoredPasswordHash.bcrypt(stored) else {
                return refuse(.unknownHashAlgorithm(HashName.of(stored)))
            }
            hash = bcrypt
        }
        let created = record.date("created_at") ?? options.now
        var identities: [IdentityRecord] = []
        for identity in record.records("identities") {
            guard let auth0Provider = identity.string("provider"), let provider = provider(auth0Provider),
                let subject = identity.string("user_id")
            else { continue }
            var data: [String: JSONValue] =
                identity.record("profileData").map { ExportRecord.json($0.fields) }
                .flatMap { if case .object(let object) = $0 { object } else { nil } } ?? [:]
            data["sub"] = .string(subject)
            if data["email"] == nil, let email = record.string("email") { data["email"] = .string(email) }
            identities.append(
                IdentityRecord(
                    userID: id,
                    provider: AuthProvider(rawValue: provider),
                    subject: subject,
                    email: record.string("email")?.lowercased(),
                    data: data,
                    lastSignInAt: nil,
                    createdAt: created,
                    updatedAt: created
                )
            )
        }
        var appMetadata = record.object("app_metadata") ?? [:]
        appMetadata["auth0_user_id"] = .string(userID)
        appMetadata["provider"] = .string(identities.first.map(\.provider.rawValue) ?? "email")
        appMetadata["providers"] = .array(
            ((hash != nil ? ["email"] : []) + identities.map(\.provider.rawValue)).map(JSONValue.string)
        )
        var userMetadata = record.object("user_metadata") ?? [:]
        if let name = record.string("name"), userMetadata["full_name"] == nil {
            userMetadata["full_name"] = .string(name)
        }
        if let picture = record.string("picture"), userMetadata["avatar_url"] == nil {
            userMetadata["avatar_url"] = .string(picture)
        }
        let verified = record.bool("email_verified") || options.trustsUnverifiedAddresses
        return ImportUserBuilder.build(
            sourceID: userID,
            id: id,
            email: record.string("email"),
            passwordHash: hash,
            confirmedAt: verified ? created : nil,
            lastSignInAt: record.date("last_login"),
            appMetadata: appMetadata,
            userMetadata: userMetadata,
            banned: record.bool("blocked"),
            createdAt: created,
            updatedAt: record.date("updated_at"),
            identities: identities
        )
    }

    /// Auth0's connection names as GoTrue names them; `auth0` (the database connection) is the
    /// e-mail identity, not a provider.
    static func provider(_ auth0: String) -> String? {
        switch auth0 {
        case "auth0", "email", "sms": nil
        case "google-oauth2": "google"
        case "windowslive": "azure"
        default: auth0
        }
    }
}
