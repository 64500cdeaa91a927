extension Session: CustomStringConvertible, CustomDebugStringConvertible {
    /// A description that never contains a token, safe for logs.
    public var description: String {
        "Session(user: \(user.id), anonymous: \(user.isAnonymous), expiresAt: \(expiresAt), tokens: <redacted>)"
    }

    public var debugDescription: String { description }
}
