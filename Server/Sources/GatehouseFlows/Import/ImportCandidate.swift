import Crypto
import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// A user read from an export, ready to be written: the row with its provider identities.
struct ImportCandidate: Sendable {
    /// The user's id in the source, for reports.
    var sourceID: String
    var user: UserRecord
    /// Verified TOTP factors read with the user, their secrets in the clear until
    /// ``sealingFactors(with:)`` seals them into `user.factors`.
    var factors: [ImportedFactor] = []
    /// The user's factors left out, with the reason (unverified ones, other kinds).
    var skippedFactors: [ImportRefusal] = []

    /// The candidate with its factors sealed under the server secret, as enrolment seals them.
    func sealingFactors(with sealing: FactorSecretSealing) throws -> ImportCandidate {
        var sealed = self
        sealed.user.factors += try factors.map { imported in
            var record = imported.record
            record.sealedSecret = try sealing.seal(imported.secret, factorID: record.id)
            return record
        }
        sealed.factors = []
        return sealed
    }

    /// The new id of a Firebase or Auth0 user: derived from the source and its old id, so that a
    /// second run of the same export finds the users it wrote (idempotence) without an index on
    /// `app_metadata`. A name-based UUID (version 8, SHA-256 as RFC 9562's example does).
    static func derivedID(source: ImportSource, sourceID: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("gatehouse-import:\(source.rawValue):\(sourceID)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    /// A ban that lasts (a disabled or blocked user in the source).
    static let permanentBan = Date(timeIntervalSince1970: 32_503_680_000)  // 3000-01-01
}

/// A verified TOTP factor of an export, before its secret is sealed.
struct ImportedFactor: Sendable {
    /// The factor as it will be stored, without its secret.
    var record: FactorRecord
    var secret: TOTPSecret
}

/// A record read from an export: a user to write, or a refusal.
enum ImportRecord: Sendable {
    case user(ImportCandidate)
    case refused(ImportRefusal)
}
