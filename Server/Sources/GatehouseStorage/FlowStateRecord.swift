public import Foundation
import GatehouseServerSupport

/// A sign-in in progress (GoTrue's `flow_state`): started at `GET /authorize` (a provider's page)
/// or by an e-mail request that sent a `code_challenge` (``linkHash``), finished when the app
/// exchanges the ``authCodeHash``'s code with its verifier (`POST /token?grant_type=pkce`), or at
/// once in the implicit flow. Every secret in it is stored as a hash, except what must be sent to
/// the provider again (its PKCE verifier and the nonce) and the provider's tokens, which are sealed.
public struct FlowStateRecord: Sendable, Equatable {
    public var id: UUID
    /// SHA-256 hex of the `state` sent to the provider; `nil` for e-mail flows and once the
    /// callback has claimed it (a state works once).
    public var stateHash: String?
    /// SHA-256 hex of the link token of the e-mailed code this flow waits for (e-mail flows).
    public var linkHash: String?
    /// SHA-256 hex of the `auth_code` handed to the app; `nil` until it is issued.
    public var authCodeHash: String?
    /// The provider's name (`github`, an OpenID Connect provider's name, …), or `email`.
    public var provider: AuthProvider
    /// The `amr` method of the session the flow opens: `oauth`, `email/signup`, `otp`, `recovery`,
    /// `email_change`.
    public var authenticationMethod: AuthenticationMethod
    /// Where the browser goes at the end (allowed by the redirect policy when the flow started).
    public var redirectTo: String
    /// The app's PKCE challenge; `nil` for the implicit flow (tokens in the redirect's fragment).
    public var codeChallenge: String?
    /// `s256` or `plain`, with ``codeChallenge``.
    public var codeChallengeMethod: String?
    /// The server's own PKCE verifier at the provider, sent with the provider's code.
    public var providerVerifier: String?
    /// The OpenID Connect nonce sent to the provider, which its ID token must carry.
    public var nonce: String?
    /// The user the flow signed in, once known (the code then waits for the app's exchange).
    public var userID: UUID?
    /// The signed-in user linking a new identity (`GET /user/identities/authorize`), and the
    /// session that asked (it must still be live, at the assurance the table asks, at the callback).
    public var linkingUserID: UUID?
    public var linkingSessionID: UUID?
    /// The provider's access and refresh tokens, sealed, kept for the code's exchange.
    public var sealedProviderTokens: String?
    public var createdAt: Date
    /// When the flow (before the callback) or its code (after) stops working.
    public var expiresAt: Date

    public init(
        id: UUID? = nil,
        stateHash: String? = nil,
        linkHash: String? = nil,
        authCodeHash: String? = nil,
        provider: AuthProvider,
        authenticationMethod: AuthenticationMethod,
        redirectTo: String,
        codeChallenge: String? = nil,
        codeChallengeMethod: String? = nil,
        providerVerifier: String? = nil,
        nonce: String? = nil,
        userID: UUID? = nil,
        linkingUserID: UUID? = nil,
        linkingSessionID: UUID? = nil,
        sealedProviderTokens: String? = nil,
        createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id ?? .random()
        self.stateHash = stateHash
        self.linkHash = linkHash
        self.authCodeHash = authCodeHash
        self.provider = provider
        self.authenticationMethod = authenticationMethod
        self.redirectTo = redirectTo
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.providerVerifier = providerVerifier
        self.nonce = nonce
        self.userID = userID
        self.linkingUserID = linkingUserID
        self.linkingSessionID = linkingSessionID
        self.sealedProviderTokens = sealedProviderTokens
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether the app proves itself with a verifier (`?code=`), rather than receiving tokens.
    public var isPKCE: Bool { codeChallenge != nil }
}

/// The reads of the sign-in flows (part of ``StorageReader``).
public protocol FlowStateReader: Sendable {
    /// The flow waiting for the e-mailed code whose link token hashes to `linkHash`.
    func flowState(linkHash: String) async throws -> FlowStateRecord?
    /// The flow whose `auth_code` hashes to `authCodeHash`.
    func flowState(authCodeHash: String) async throws -> FlowStateRecord?
}

/// The writes of the sign-in flows (part of ``StorageTransaction``).
public protocol FlowStateWriter: Sendable {
    /// Stores a new flow.
    func insertFlowState(_ flow: FlowStateRecord) async throws
    /// Claims the flow of a `state` in one statement: its state hash is cleared so that no other
    /// callback finds it, and the flow as it was is returned; `nil` when no flow has the state.
    func claimFlowState(stateHash: String) async throws -> FlowStateRecord?
    /// Rewrites a flow's user, code, method, sealed tokens and expiry (its code was issued).
    func updateFlowState(_ flow: FlowStateRecord) async throws
    /// Deletes the flow `id`; returns whether it was there (only one exchange consumes a code).
    func deleteFlowState(id: UUID) async throws -> Bool
}
