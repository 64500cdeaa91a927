public import Foundation

extension AuthService {
    /// Signs in through a provider's page (GitHub, Google, Apple on the web, any OpenID Connect
    /// provider the server's operator configured), with PKCE: the server's `/authorize` sends the
    /// browser to the provider and back to `redirectTo` with a code, which only this call's
    /// verifier turns into a session.
    ///
    /// A person who closes the browser or declines at the provider gets
    /// ``ProviderSignInOutcome/cancelled``, not an error. Cancelling the calling task closes the
    /// browser and throws ``ErrorCode/cancelled``. A signed-in guest is replaced by the account
    /// the provider signs in (link a provider to an account with the server's
    /// `/user/identities/authorize`).
    ///
    /// ```swift
    /// // Apple platforms: the system's web sheet (WebAuthenticationSessionBrowser).
    /// let outcome = try await auth.signIn(
    ///     with: "github",
    ///     redirectTo: URL(string: "myapp://auth-callback")!,
    ///     using: WebAuthenticationSessionBrowser(anchor: window)
    /// )
    /// if case .signedIn(let user) = outcome { print(user.email ?? user.id.uuidString) }
    /// ```
    ///
    /// - Parameters:
    ///   - provider: The provider's name on the server (`github`, `google`, `apple`, `keycloak`);
    ///     `GET /settings` lists them under `external`.
    ///   - scopes: Scopes to ask the provider for besides its own (the provider's token comes
    ///     back in the session's provider token).
    ///   - redirectTo: Where the browser comes back: a URL the server's allow list
    ///     (`GATEHOUSE_URI_ALLOW_LIST`) names; the call adds its `state` to the query.
    ///   - browser: What shows the page and waits for the redirect.
    /// - Returns: ``ProviderSignInOutcome/signedIn(_:)``, or ``ProviderSignInOutcome/cancelled``.
    /// - Throws: ``ErrorCode/badOAuthState`` for a redirect that is not this sign-in's; the
    ///   server's code for a failed sign-in (`email_exists` when an account has the address and the
    ///   provider does not vouch for it, `signup_disabled`, `bad_oauth_callback`…); the exchange's
    ///   refusals (`flow_state_expired` after ten minutes).
    @discardableResult
    public func signIn(
        with provider: String,
        scopes: [String] = [],
        redirectTo: URL,
        using browser: some ProviderSignInBrowser
    ) async throws -> ProviderSignInOutcome {
        try await operation {
            let flow = try ProviderSignInFlow(provider: provider, scopes: scopes, redirectTo: redirectTo)
            try await requireStoreRead()
            let url = try await backend.providerSignInURL(for: flow)
            guard case .redirected(let redirect) = try await browser.open(url, for: flow) else { return .cancelled }
            guard case .code(let code) = try flow.result(of: redirect) else { return .cancelled }
            let started = generation
            let new = try await backend.exchangeAuthCode(code, verifier: flow.pkce.verifier)
            try await establish(new, startedIn: started)
            return .signedIn(new.user)
        }
    }
}
