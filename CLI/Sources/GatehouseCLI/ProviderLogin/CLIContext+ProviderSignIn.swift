import Foundation
public import Gatehouse

extension CLIContext {
    /// `gatehouse login --provider NAME`: a sign-in through the provider's page in the browser,
    /// redirected back to a loopback port this process chose (``LoopbackBrowser``), with PKCE.
    /// The session is saved as every login saves it, only once the code was exchanged.
    ///
    /// - Returns: The user, or `nil` when the person declined at the provider or the browser
    ///   never came back with a sign-in.
    /// - Throws: ``ErrorCode/requestTimeout`` after `timeout`; ``ErrorCode/cancelled`` on Ctrl-C;
    ///   the server's refusals.
    public func signInThroughBrowser(
        provider: String,
        scopes: [String],
        opening: LoopbackBrowser.Opening,
        timeout: Duration
    ) async throws -> User? {
        let browser = try LoopbackBrowser(opening: opening, timeout: timeout, console: console)
        defer { browser.listener.close() }
        let outcome = try await auth.signIn(
            with: provider,
            scopes: scopes,
            redirectTo: browser.listener.redirectURL,
            using: browser
        )
        guard case .signedIn(let user) = outcome else { return nil }
        return user
    }
}
