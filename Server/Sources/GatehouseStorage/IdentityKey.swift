
/// What makes an identity unique: its provider and the provider's subject.
public struct IdentityKey: Sendable, Hashable {
    public var provider: AuthProvider
    public var subject: String

    public init(provider: AuthProvider, subject: String) {
        self.provider = provider
        self.subject = subject
    }
}
