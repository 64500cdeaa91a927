
/// What makes an identity unique: its provider and the provider's subject.
public struct IdentityKey: Sendable, Hashable {
    public var provider: String
    public var subject: String

    public init(provider: String, subject: String) {
        self.provider = provider
        self.subject = subject
    }
}
