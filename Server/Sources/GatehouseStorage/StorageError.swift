
/// A storage failure the API maps to a specific answer.
public enum StorageError: Error, Equatable {
    /// An insert or update hit the unique e-mail index.
    case duplicateEmail
    /// An insert hit the unique (provider, subject) index of identities.
    case duplicateIdentity
    /// An insert hit the unique (user, friendly name) index of factors.
    case duplicateFactorName
    /// An insert hit the unique credential-id index of passkeys.
    case duplicatePasskey
    /// A transaction ended without a result (a storage fault).
    case noResult
}
