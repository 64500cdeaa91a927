import Foundation
import GatehouseCore
import GatehouseStorage

/// Reads what `firebase auth:export users.json --format=json` writes: `{"users": [{localId,
/// email, emailVerified, passwordHash, salt, displayName, photoUrl, phoneNumber, createdAt,
/// lastSignedInAt, disabled, customAttributes, providerUserInfo: [{providerId, rawId, email,
/// displayName, photoUrl}]}]}`, times in milliseconds since 1970, hashes and salts in base64.
enum FirebaseExport {
    static func records(from data: Data, options: ImportOptions) throws -> [ImportRecord] {
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ImportFileError("a Firebase export is a JSON object with a \"users\" array")
        }
        return ExportRecord(fields: document).records("users").enumerated().map { index, record in
            user(record, line: index + 1, options: options)
        }
    }

    static func user(_ record: ExportRecord, line: Int, options: ImportOptions) -> ImportRecord {
        guard let uid = record.string("localId") else {
            return .refused(ImportRefusal(record: "user #\(line)", reason: .missingID))
        }
        let refuse = { (reason: ImportRefusal.Reason) in
            ImportRecord.refused(ImportRefusal(record: uid, reason: reason))
        }
        let id = ImportCandidate.derivedID(source: .firebase, sourceID: uid)
        let created = record.date("createdAt") ?? options.now
        var hash: String?
        if let passwordHash = record.string("passwordHash") {
            guard let bytes = Base64Text.decode(passwordHash), !bytes.isEmpty else {
                return refuse(.malformed("passwordHash"))
            }
            guard let salt = Base64Text.decode(record.string("salt") ?? "") else { return refuse(.malformed("salt")) }
            hash = StoredPasswordHash.firebaseScrypt(salt: salt, hash: bytes).stored
        }
        var identities: [IdentityRecord] = []
        for info in record.records("providerUserInfo") {
            guard let providerID = info.string("providerId"), let provider = provider(providerID),
                let subject = info.string("rawId")
            else { continue }
            var data: [String: JSONValue] = ["sub": .string(subject)]
            if let email = info.string("email") { data["email"] = .string(email) }
            if let name = info.string("displayName") {
                data["full_name"] = .string(name)
                data["name"] = .string(name)
            }
            if let photo = info.string("photoUrl") {
                data["avatar_url"] = .string(photo)
                data["picture"] = .string(photo)
            }
            identities.append(
                IdentityRecord(
                    userID: id,
                    provider: AuthProvider(rawValue: provider),
                    subject: subject,
                    email: info.string("email")?.lowercased(),
                    data: data,
                    lastSignInAt: nil,
                    createdAt: created,
                    updatedAt: created
                )
            )
        }
        var appMetadata: [String: JSONValue] = [
            "firebase_uid": .string(uid),
            "provider": .string(identities.first.map(\.provider.rawValue) ?? "email"),
            "providers": .array(
                ((hash != nil ? ["email"] : []) + identities.map(\.provider.rawValue)).map(JSONValue.string)
            ),
        ]
        if let claims = record.object("customAttributes"), !claims.isEmpty {
            appMetadata["firebase_claims"] = .object(claims)
        }
        var userMetadata: [String: JSONValue] = [:]
        if let name = record.string("displayName") { userMetadata["full_name"] = .string(name) }
        if let photo = record.string("photoUrl") { userMetadata["avatar_url"] = .string(photo) }
        if let phone = record.string("phoneNumber") { userMetadata["phone"] = .string(phone) }
        let verified = record.bool("emailVerified") || options.trustsUnverifiedAddresses
        return ImportUserBuilder.build(
            sourceID: uid,
            id: id,
            email: record.string("email"),
            passwordHash: hash,
            confirmedAt: verified ? created : nil,
            lastSignInAt: record.date("lastSignedInAt"),
            appMetadata: appMetadata,
            userMetadata: userMetadata,
            banned: record.bool("disabled"),
            createdAt: created,
            identities: identities
        )
    }

    /// Firebase's provider ids as GoTrue names them (`google.com` → `google`); `password` and
    /// `phone` are not identities here.
    static func provider(_ firebase: String) -> String? {
        switch firebase {
        case "password", "phone", "anonymous": nil
        case "google.com": "google"
        case "apple.com": "apple"
        case "facebook.com": "facebook"
        case "github.com": "github"
        case "twitter.com": "twitter"
        case "microsoft.com": "azure"
        default: firebase
        }
    }
}
