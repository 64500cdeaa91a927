public import Foundation
public import Gatehouse

/// Sign-in through a provider's page, simulated as a Gatehouse server runs it: the URL
/// ``providerSignInURL(for:)`` returns names a stored flow (10 minutes, one consent); a test
/// plays the person at the provider's page with ``consent(at:as:)`` or ``decline(at:)``, which
/// answer the redirect the server would send (`redirect_to?code=…`, or `?error=access_denied…`);
/// and ``exchangeAuthCode(_:verifier:)`` checks the PKCE verifier and spends the code once,
/// within 10 minutes. The account is chosen by the ID-token grant's rules (one identity per
/// provider and subject; an address links to an existing account only when the provider vouches
/// for it, else `email_exists`). Unlike a server, any redirect URL is allowed.
///
/// ```swift
/// let backend = InMemoryAuthBackend()
/// let auth = AuthService(backend: backend, store: InMemorySessionStore())
/// let person = InMemoryAuthBackend.ProviderAccount(subject: "42", email: "ada@example.com")
/// let outcome = try await auth.signIn(
///     with: "github", redirectTo: URL(string: "myapp://auth")!,
///     using: InMemoryProviderBrowser(backend: backend, choice: .consent(person)))
/// ```
extension InMemoryAuthBackend {
    /// The person at a simulated provider's page.
    public struct ProviderAccount: Sendable, Equatable {
        /// The provider's stable id of the person (OpenID Connect's `sub`, GitHub's user id).
        public var subject: String
        /// The address the provider gives, if any.
        public var email: String?
        /// Whether the provider vouches for ``email`` (verified, and for GitHub the primary address).
        public var emailVerified: Bool

        /// Creates an account.
        public init(subject: String, email: String? = nil, emailVerified: Bool = true) {
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
        }
    }

    /// The simulated `/authorize`: stores the flow and answers
    /// `https://provider.invalid/<provider>/authorize?flow=<id>`, the page ``consent(at:as:)`` and
    /// ``decline(at:)`` act on.
    ///
    /// - Throws: `ErrorCode.validationFailed` for a provider not in ``Configuration/providers``.
    public func providerSignInURL(for flow: ProviderSignInFlow) async throws -> URL {
        try await enter(.providerSignIn)
        guard configuration.providers.contains(flow.provider) else {
            throw AuthError(
                code: .validationFailed,
                message: "Unsupported provider: provider \(flow.provider) could not be found",
                httpStatus: 400
            )
        }
        let id = Self.randomToken()
        providerFlows[id] = ProviderFlowRecord(
            provider: flow.provider,
            redirectURL: flow.redirectURL,
            challenge: flow.pkce.challenge,
            expiresAt: now.addingTimeInterval(Self.providerFlowLifetime)
        )
        return URL(string: "https://provider.invalid/\(flow.provider)/authorize?flow=\(id)")!
    }

    /// The person allows the sign-in at the provider's page opened at `url`: the redirect the
    /// server then sends (`redirect_to?code=…`), or, when the account cannot sign in (an address
    /// another account has that the provider does not vouch for, a banned user), the redirect
    /// with GoTrue's `error`, `error_code` and `error_description`.
    ///
    /// - Throws: `ErrorCode.badOAuthState` for a page no flow waits on (unknown, used, expired).
    public func consent(at url: URL, as account: ProviderAccount) throws -> URL {
        let flow = try takeFlow(at: url)
        let claims = IDTokenClaims(
            provider: flow.provider,
            subject: account.subject,
            email: account.email?.lowercased(),
            emailVerified: account.emailVerified,
            nonce: nil
        )
        do {
            let userID = try resolveUser(for: claims, linkingTo: nil)
            try checkNotBanned(accounts[userID]!)
            let code = UUID().uuidString.lowercased()
            authCodes[code] = AuthCodeRecord(
                userID: userID,
                challenge: flow.challenge,
                expiresAt: now.addingTimeInterval(Self.providerFlowLifetime)
            )
            return Self.redirect(flow.redirectURL, [("code", code)])
        } catch let error as AuthError {
            let oauth = error.code == .signupDisabled || error.code == .userBanned ? "access_denied" : "invalid_request"
            return Self.redirect(
                flow.redirectURL,
                [("error", oauth), ("error_code", error.code.rawValue), ("error_description", error.message)]
            )
        }
    }

    /// The person declines at the provider's page opened at `url`: the redirect with
    /// `error=access_denied&error_code=access_denied`.
    ///
    /// - Throws: `ErrorCode.badOAuthState` for a page no flow waits on.
    public func decline(at url: URL) throws -> URL {
        let flow = try takeFlow(at: url)
        return Self.redirect(
            flow.redirectURL,
            [("error", "access_denied"), ("error_code", "access_denied"), ("error_description", "The person declined")]
        )
    }

    /// `POST /token?grant_type=pkce`: the code's session, once.
    ///
    /// - Throws: `ErrorCode.flowStateNotFound` (unknown or used code), `ErrorCode.flowStateExpired`
    ///   (after 10 minutes), `ErrorCode.badCodeVerifier` (the code stays usable with the right one).
    public func exchangeAuthCode(_ code: String, verifier: String) async throws -> Session {
        try await enter(.exchangeAuthCode)
        guard let record = authCodes[code] else {
            throw AuthError(
                code: .flowStateNotFound,
                message: "invalid flow state, no valid flow state found",
                httpStatus: 404
            )
        }
        guard record.expiresAt > now else {
            authCodes[code] = nil
            throw AuthError(
                code: .flowStateExpired,
                message: "invalid flow state, flow state has expired",
                httpStatus: 422
            )
        }
        guard PKCEVerifier(verifier: verifier).challenge == record.challenge else {
            throw AuthError(
                code: .badCodeVerifier,
                message: "code challenge does not match previously saved code verifier",
                httpStatus: 400
            )
        }
        authCodes[code] = nil
        try checkNotBanned(accounts[record.userID]!)
        return startSession(for: record.userID, method: "oauth")
    }

    /// How long a flow waits for consent, and a code for its exchange.
    static let providerFlowLifetime: TimeInterval = 600

    private func takeFlow(at url: URL) throws -> ProviderFlowRecord {
        let id = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "flow" }?.value
        guard let id, let flow = providerFlows.removeValue(forKey: id), flow.expiresAt > now else {
            throw AuthError(
                code: .badOAuthState,
                message: "OAuth callback with invalid state",
                httpStatus: 400
            )
        }
        return flow
    }

    /// `target` with `fields` added to its query, as the server writes a redirect.
    private static func redirect(_ target: URL, _ fields: [(String, String)]) -> URL {
        var components = URLComponents(url: target, resolvingAgainstBaseURL: false)!
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let added = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }
        components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap(\.self) + added).joined(separator: "&")
        return components.url!
    }
}

/// A simulated sign-in flow of ``InMemoryAuthBackend``, waiting for the person at the provider.
struct ProviderFlowRecord {
    var provider: String
    var redirectURL: URL
    var challenge: String
    var expiresAt: Date
}

/// A consented sign-in's code, waiting for its exchange.
struct AuthCodeRecord {
    var userID: String
    var challenge: String
    var expiresAt: Date
}
