public import Foundation

/// Shows a provider's sign-in page and waits for the redirect back: what
/// ``AuthService/signIn(with:scopes:redirectTo:using:)`` needs from a platform.
///
/// Gatehouse ships `WebAuthenticationSessionBrowser` (`ASWebAuthenticationSession`) on Apple
/// platforms; the `gatehouse` CLI opens the system browser and listens on a loopback port; tests
/// use a browser that follows the redirects themselves (`InMemoryAuthBackend.Provider`'s
/// consent, in GatehouseTesting).
@MainActor
public protocol ProviderSignInBrowser {
    /// Opens `url` (the server's `/authorize`, which leads to the provider's page) and returns the
    /// first URL the browser is sent to that ``ProviderSignInFlow/isRedirect(_:)`` accepts, or
    /// ``BrowserRedirect/closed`` when the person closed the browser first. Cancelling the
    /// calling task closes the browser and throws ``ErrorCode/cancelled``.
    func open(_ url: URL, for flow: ProviderSignInFlow) async throws -> BrowserRedirect
}

/// How a ``ProviderSignInBrowser`` ended.
public enum BrowserRedirect: Sendable, Equatable {
    /// The browser was sent to the flow's redirect URL: this one, with its query.
    case redirected(URL)
    /// The person closed the browser (or its sheet) before the redirect.
    case closed
}

/// The end of ``AuthService/signIn(with:scopes:redirectTo:using:)``: a person who closes the
/// browser or declines at the provider has not failed, so that is an outcome, not an error.
public enum ProviderSignInOutcome: Sendable, Equatable {
    /// Signed in; the session is the service's now.
    case signedIn(User)
    /// The person closed the browser, or declined at the provider's page. Nothing changed.
    case cancelled
}

extension BrowserRedirect {
    /// What an `ASWebAuthenticationSession`'s completion means, kept free of Apple types so that
    /// it is tested on Linux: a callback URL is the redirect; `ASWebAuthenticationSessionError`
    /// code 1 (`canceledLogin`: the person closed the sheet or refused the system's prompt) is
    /// ``closed``; codes 2 and 3 (no presentation context, an invalid one) and anything else
    /// are errors.
    package static func webAuthenticationSession(
        callback: URL?,
        errorCode: Int?,
        underlying: String?
    ) -> Result<BrowserRedirect, AuthError> {
        if let callback { return .success(.redirected(callback)) }
        switch errorCode {
        case 1:
            return .success(.closed)
        case 2, 3:
            return .failure(
                AuthError(
                    code: .unknown,
                    message: "The sign-in page could not be shown.",
                    recoverySuggestion: "Pass the window of a scene in the foreground as the anchor.",
                    underlying: underlying
                )
            )
        default:
            return .failure(
                AuthError(
                    code: .unknown,
                    message: "The sign-in page failed.",
                    recoverySuggestion: "Try again.",
                    isRetryable: true,
                    underlying: underlying ?? "no callback URL and no error"
                )
            )
        }
    }
}
