/// A storage failure the API maps to a specific answer.
public enum StorageError: Error, Equatable {
    /// An insert or update hit the unique e-mail index.
    case duplicateEmail
    /// An insert hit the unique (provider, subject) index of identities.
    case duplicateIdentity
    /// A transaction ended without a result (a storage fault).
    case noResult
}
