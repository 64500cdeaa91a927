import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// The checks every source shares when it turns a record into a user: the address is valid,
/// the user is anonymous or has some way to sign in, a ban is kept.
enum ImportUserBuilder {
    static func build(
        sourceID: String,
        id: UUID,
        email rawEmail: String?,
        passwordHash: String?,
        confirmedAt: Date?,
        lastSignInAt: Date?,
        appMetadata: [String: JSONValue],
        userMetadata: [String: JSONValue],
        banned: Bool,
        bannedUntil: Date? = nil,
        isAnonymous: Bool = false,
        createdAt: Date,
        updatedAt: Date? = nil,
        identities: [IdentityRecord]
    ) -> ImportRecord {
        var email: String?
        if let rawEmail {
            guard let normalized = try? EmailAddress.normalized(rawEmail) else {
                return .refused(ImportRefusal(record: sourceID, reason: .invalidAddress))
            }
            email = normalized
        }
        let user = UserRecord(
            id: id,
            email: email,
            passwordHash: passwordHash,
            emailConfirmedAt: email == nil ? nil : confirmedAt,
            lastSignInAt: lastSignInAt,
            appMetadata: appMetadata,
            userMetadata: userMetadata,
            isAnonymous: isAnonymous,
            bannedUntil: banned ? ImportCandidate.permanentBan : bannedUntil,
            createdAt: createdAt,
            updatedAt: updatedAt ?? createdAt,
            identities: identities
        )
        return .user(ImportCandidate(sourceID: sourceID, user: user))
    }
}
