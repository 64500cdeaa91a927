import Foundation
import Gatehouse

/// An account as the in-memory backend keeps it.
struct AccountRecord {
    var user: User
    var passwordHash: SaltedHash?
    /// The sign-up code sent with a password that is not proven yet (the address is
    /// unconfirmed): only that code keeps the password when it confirms the address.
    var passwordCode: String?
    var bannedUntil: Date?
    var identities: [IdentityKey] = []
}

/// A linked provider identity.
struct IdentityKey: Hashable {
    var provider: String
    var subject: String
}

/// A server-side session and its refresh-token family.
struct SessionRecord {
    var id: String
    var userID: String
    var currentRefreshToken: String
    /// The token the current one replaced.
    var parentRefreshToken: String?
    /// When the family last rotated: older tokens presented within the reuse interval of this
    /// moment get the current token, as on the server.
    var lastRotatedAt: Date?
    /// The label the device sent at sign-in.
    var device: String?
    var createdAt: Date
    var refreshedAt: Date
    /// Its newest authentication (the sign-in, or a second factor verified in it): how recent a
    /// sign-in a sensitive action sees.
    var authenticatedAt: Date
    /// How it signed in, newest first.
    var methods: [String]
    /// The order it was opened in (1 for the backend's first session).
    var sequence: Int
    /// `aal2` once a factor's code was verified in it.
    var aal: AssuranceLevel.Level = .aal1
    /// The factor an AAL2 session relied on.
    var factorID: String?
}

/// An issued access token. It stays readable after its session ends, so a call with it is
/// answered `session_not_found`, as a server that verifies the JWT and then the session does.
struct AccessRecord {
    var sessionID: String
    var userID: String
    var expiresAt: Date
}

/// A pending e-mailed code, one per user and purpose.
struct CodeRecord {
    var code: String
    /// Where it was sent (for an e-mail change: the new address).
    var email: String
    var sentAt: Date
    var expiresAt: Date
    var attempts = 0
}

/// What a fake ID token stands for.
struct IDTokenClaims {
    /// The provider's name (`apple`, `google`, or a simulated page's provider, `github`).
    var provider: String
    var subject: String
    var email: String?
    /// Whether the provider vouches for the address (Apple: verified; Google: verified and
    /// Gmail or a Workspace domain).
    var emailVerified: Bool
    /// The token's `nonce` claim: the SHA-256 hex of the raw nonce, or (GoogleSignIn) the raw nonce.
    var nonce: String?

    /// The identity the user object lists for it.
    var identity: UserIdentity {
        UserIdentity(provider: provider, subject: subject, email: email)
    }
}

extension VerificationType {
    /// The code to the current address in a secure e-mail change (verified as `email_change`).
    static let emailChangeCurrent: VerificationType = "email_change_current"
}
