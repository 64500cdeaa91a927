public import Foundation
public import Gatehouse

extension InMemoryAuthBackend {
    /// How the in-memory backend behaves; the defaults mirror a Gatehouse server.
    public struct Configuration: Sendable {
        /// Whether new e-mail accounts must confirm a code before they can sign in.
        public var requiresEmailConfirmation: Bool
        /// Whether guests can be created.
        public var allowsAnonymousSignIn: Bool
        /// Seconds an access token lives.
        public var accessTokenLifetime: TimeInterval
        /// Seconds within which a rotated refresh token may be presented again (concurrent refresh).
        public var reuseInterval: TimeInterval
        /// Seconds an e-mailed code stays valid.
        public var codeLifetime: TimeInterval
        /// Wrong attempts after which a code is dead.
        public var maximumCodeAttempts: Int
        /// The shortest password accepted.
        public var minimumPasswordLength: Int
        /// How long every call takes.
        public var latency: Duration
        /// The backend's clock.
        public var now: @Sendable () -> Date

        /// Creates a configuration.
        public init(
            requiresEmailConfirmation: Bool = false,
            allowsAnonymousSignIn: Bool = true,
            accessTokenLifetime: TimeInterval = 3600,
            reuseInterval: TimeInterval = 10,
            codeLifetime: TimeInterval = 600,
            maximumCodeAttempts: Int = 5,
            minimumPasswordLength: Int = 8,
            latency: Duration = .zero,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.requiresEmailConfirmation = requiresEmailConfirmation
            self.allowsAnonymousSignIn = allowsAnonymousSignIn
            self.accessTokenLifetime = accessTokenLifetime
            self.reuseInterval = reuseInterval
            self.codeLifetime = codeLifetime
            self.maximumCodeAttempts = maximumCodeAttempts
            self.minimumPasswordLength = minimumPasswordLength
            self.latency = latency
            self.now = now
        }
    }

    /// The calls a test can count or make fail.
    public enum Operation: String, Sendable, CaseIterable {
        case signUp, signIn, signInAnonymously, signInWithIDToken, sendMagicCode, verifyCode
        case resetPassword, refresh, user, updateUser, deleteAccount, signOut
    }

    /// A code the backend "e-mailed".
    public struct SentCode: Sendable, Equatable {
        public var email: String
        public var code: String
        public var type: VerificationType
        public var sentAt: Date
    }
}
