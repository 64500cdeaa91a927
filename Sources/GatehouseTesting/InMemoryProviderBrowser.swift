public import Foundation
public import Gatehouse

/// A `ProviderSignInBrowser` for apps' tests and previews: it "shows" the simulated provider's
/// page of an ``InMemoryAuthBackend`` and plays the person's choice, so
/// `AuthService.signIn(with:scopes:redirectTo:using:)` runs its whole path (PKCE, state, the
/// redirect's parsing, the exchange) without a browser.
///
/// ```swift
/// let browser = InMemoryProviderBrowser(backend: backend, choice: .consent(.init(subject: "42", email: "ada@example.com")))
/// #expect(try await auth.signIn(with: "github", redirectTo: callback, using: browser) != .cancelled)
/// ```
@MainActor
public final class InMemoryProviderBrowser: ProviderSignInBrowser {
    /// What the person does at the provider's page.
    public enum Choice: Sendable, Equatable {
        /// Allows the sign-in as this account.
        case consent(InMemoryAuthBackend.ProviderAccount)
        /// Declines at the provider (`access_denied`).
        case decline
        /// Closes the browser before anything happens.
        case close
    }

    private let backend: InMemoryAuthBackend
    private let choice: Choice
    /// Changes the redirect before the app sees it (a test of a forged or stale redirect).
    private let tamper: @Sendable (URL) -> URL

    /// The URLs opened so far, in order.
    public private(set) var opened: [URL] = []

    /// Creates a browser that plays `choice` on `backend`'s simulated provider pages;
    /// `tamper` rewrites the redirect before the app reads it.
    public init(
        backend: InMemoryAuthBackend,
        choice: Choice,
        tamper: @escaping @Sendable (URL) -> URL = { $0 }
    ) {
        self.backend = backend
        self.choice = choice
        self.tamper = tamper
    }

    /// Opens `url` and plays the choice; a cancelled task throws `ErrorCode.cancelled`.
    public func open(_ url: URL, for flow: ProviderSignInFlow) async throws -> BrowserRedirect {
        opened.append(url)
        if Task.isCancelled { throw AuthError.authorizationCancelled() }
        switch choice {
        case .close:
            return .closed
        case .decline:
            return .redirected(tamper(try await backend.decline(at: url)))
        case .consent(let account):
            return .redirected(tamper(try await backend.consent(at: url, as: account)))
        }
    }
}
