import GatehouseStorage

/// A record the import skips, and why: reported by the dry run and the real run alike.
public struct ImportRefusal: Sendable, Equatable, CustomStringConvertible {
    /// Why a record is refused.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// No id in the source to keep (or, for Supabase, one that is not a UUID).
        case missingID
        /// An address that is not one (the server's sign-up rule).
        case invalidAddress
        /// Another record of the export has the same address, maybe in another case: which of
        /// them owns it cannot be told, so neither is imported.
        case duplicateAddress
        /// Another record of the export has the same id.
        case duplicateID
        /// A password hash of a scheme the server cannot verify (only bcrypt and Firebase's scrypt).
        case unknownHashAlgorithm(String)
        /// A field that should hold something else (a hash that is not base64, say).
        case malformed(String)
        /// A user already here, not from this import, has the address.
        case addressTaken
        /// A provider identity (provider and subject) already belongs to another user here, or
        /// to another record of the export.
        case identityTaken(provider: String)
        /// Deleted in the source (Supabase's `deleted_at`).
        case deleted
        /// A second factor never verified in the source: the user enrols again if they want it.
        case unverifiedFactor
        /// A second factor of a kind the server does not have (Supabase's `phone`, `webauthn`).
        case unsupportedFactorType(String)
        /// A TOTP secret Supabase encrypted at rest (`GOTRUE_SECURITY_DB_ENCRYPTION_*`): its key
        /// is not in the export.
        case encryptedFactorSecret
        /// Another factor of the user has the same friendly name.
        case duplicateFactorName

        public var description: String {
            switch self {
            case .missingID: "no usable id"
            case .invalidAddress: "invalid e-mail address"
            case .duplicateAddress: "the address appears more than once in the export (case ignored)"
            case .duplicateID: "the id appears more than once in the export"
            case .unknownHashAlgorithm(let name): "unknown password hash algorithm (\(name))"
            case .malformed(let field): "malformed \(field)"
            case .addressTaken: "another user here already has the address"
            case .identityTaken(let provider): "the \(provider) identity already belongs to another user"
            case .deleted: "deleted in the source"
            case .unverifiedFactor: "the factor was never verified"
            case .unsupportedFactorType(let type): "unsupported factor type (\(type)): only totp"
            case .encryptedFactorSecret:
                "the TOTP secret is encrypted by Supabase (GOTRUE_SECURITY_DB_ENCRYPTION); export it decrypted"
            case .duplicateFactorName: "another factor of the user has the same friendly name"
            }
        }
    }

    /// The record's id in the export (or its line number when it has none); for a factor,
    /// `factor <id> of <user id>`.
    public var record: String
    public var reason: Reason

    public var description: String { "\(record): \(reason)" }
}
