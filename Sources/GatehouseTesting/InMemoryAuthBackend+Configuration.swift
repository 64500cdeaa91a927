public import Foundation
public import Gatehouse

extension InMemoryAuthBackend {
    /// How the in-memory backend behaves. Every default mirrors a Gatehouse server's, except
    /// ``requiresEmailConfirmation``: it is off, as on a server started with
    /// `GATEHOUSE_MAILER_AUTOCONFIRM=true`, so previews sign up at once; turn it on to behave
    /// like a server's default; and ``passkeyRelyingPartyID``: passkeys are on for
    /// `example.com`, as on a server started with `GATEHOUSE_WEBAUTHN_RP_ID=example.com`, so
    /// `SoftwarePasskeyAuthenticator` works at once; `nil` turns them off.
    public struct Configuration: Sendable {
        /// Whether new e-mail addresses (sign-ups and guests' upgrades) must confirm a code
        /// before they count; off is a server's `GATEHOUSE_MAILER_AUTOCONFIRM=true`.
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
        /// Seconds before a second magic or reauthentication code (refused,
        /// `over_email_send_rate_limit`) or reset code (not sent, silently) can go to the same
        /// user: a server's `GATEHOUSE_SMTP_MAX_FREQUENCY`.
        public var minimumCodeInterval: TimeInterval
        /// The shortest password accepted.
        public var minimumPasswordLength: Int
        /// How long every call takes.
        public var latency: Duration
        /// The backend's clock.
        public var now: @Sendable () -> Date
        /// The passkeys' RP id (a server's `GATEHOUSE_WEBAUTHN_RP_ID`); `nil`: passkeys are off
        /// (`passkey_disabled`).
        public var passkeyRelyingPartyID: String?
        /// The origins accepted in a passkey's client data (`GATEHOUSE_WEBAUTHN_ORIGINS`);
        /// empty: `https://<rp id>`, what Apple's platform authenticator reports for an app.
        public var passkeyOrigins: [String]
        /// The providers whose sign-in page the backend simulates (a server's
        /// `GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID`s): `github` and `google` by default; another name
        /// is refused as the server refuses it (`validation_failed`, "Unsupported provider").
        public var providers: Set<String>

        /// Creates a configuration.
        public init(
            requiresEmailConfirmation: Bool = false,
            allowsAnonymousSignIn: Bool = true,
            accessTokenLifetime: TimeInterval = 3600,
            reuseInterval: TimeInterval = 10,
            codeLifetime: TimeInterval = 600,
            maximumCodeAttempts: Int = 5,
            minimumCodeInterval: TimeInterval = 60,
            minimumPasswordLength: Int = 8,
            latency: Duration = .zero,
            now: @escaping @Sendable () -> Date = { Date() },
            passkeyRelyingPartyID: String? = "example.com",
            passkeyOrigins: [String] = [],
            providers: Set<String> = ["github", "google"]
        ) {
            self.requiresEmailConfirmation = requiresEmailConfirmation
            self.allowsAnonymousSignIn = allowsAnonymousSignIn
            self.accessTokenLifetime = accessTokenLifetime
            self.reuseInterval = reuseInterval
            self.codeLifetime = codeLifetime
            self.maximumCodeAttempts = maximumCodeAttempts
            self.minimumCodeInterval = minimumCodeInterval
            self.minimumPasswordLength = minimumPasswordLength
            self.latency = latency
            self.now = now
            self.passkeyRelyingPartyID = passkeyRelyingPartyID
            self.passkeyOrigins = passkeyOrigins
            self.providers = providers
        }
    }

    /// The calls a test can count or make fail.
    public enum Operation: String, Sendable, CaseIterable {
        /// A sign-up with e-mail and password, or a guest's upgrade by them.
        case signUp
        /// A password sign-in.
        case signIn
        /// A guest sign-up.
        case signInAnonymously
        /// A sign-in, link or guest upgrade with an Apple or Google ID token.
        case signInWithIDToken
        /// A request for an e-mailed sign-in code.
        case sendMagicCode
        /// A check of an e-mailed code (sign-up, sign-in, recovery, e-mail change).
        case verifyCode
        /// A request for a recovery code.
        case resetPassword
        /// A refresh of the session's tokens.
        case refresh
        /// A lookup of the signed-in user.
        case user
        /// A change of the user's address, password or metadata.
        case updateUser
        /// The deletion of the signed-in user's account.
        case deleteAccount
        /// A sign-out, in any scope.
        case signOut
        /// The list of the user's sessions.
        case sessions
        /// The end of one of the user's sessions.
        case endSession
        /// The enrolment of an authenticator app.
        case enrollFactor
        /// A challenge of a second factor.
        case challengeFactor
        /// A second factor's code checked against a challenge.
        case verifyFactor
        /// The removal of a second factor.
        case unenrollFactor
        /// A request for passkey creation options.
        case passkeyRegistrationRequest
        /// The registration of a new passkey.
        case registerPasskey
        /// A request for passkey sign-in options.
        case passkeyAssertionRequest
        /// A sign-in with a passkey.
        case signInWithPasskey
        /// The list of the user's passkeys.
        case passkeys
        /// A passkey's new name.
        case renamePasskey
        /// The removal of a passkey.
        case removePasskey
        /// A request for a reauthentication code.
        case reauthenticate
        /// The start of a sign-in through a provider's page (`/authorize`).
        case providerSignIn
        /// The exchange of a provider sign-in's code for a session (`grant_type=pkce`).
        case exchangeAuthCode
    }

    /// A code the backend "e-mailed".
    public struct SentCode: Sendable, Equatable {
        /// The address it went to (for an e-mail change: the new address).
        public var email: String
        /// The six digits.
        public var code: String
        /// What it verifies: `signup`, `email` (magic code), `recovery`, `email_change`, or
        /// `reauthentication` (a code of ``InMemoryAuthBackend/reauthenticate(for:)``).
        public var type: VerificationType
        /// When it was sent.
        public var sentAt: Date
    }
}
