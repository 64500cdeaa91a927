// Apple-only (AuthenticationServices; iOS, iPadOS, Mac Catalyst, macOS, visionOS, watchOS; not
// tvOS, where the session has neither a presentation context nor an ephemeral mode):
// - ASWebAuthenticationSession(url:callbackURLScheme:completionHandler:) (iOS 12, macOS 10.15,
//   watchOS 6.2, visionOS 1; to be deprecated for init(url:callback:completionHandler:), iOS 17.4,
//   which adds https callbacks), start(), cancel();
//   https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
// - prefersEphemeralWebBrowserSession (iOS 13, macOS 10.15, watchOS 6.2, visionOS 1; not tvOS);
// - presentationContextProvider (weak) and ASWebAuthenticationPresentationContextProviding, a
//   @MainActor protocol (iOS 13, macOS 10.15, visionOS 1; not watchOS, not tvOS);
// - ASWebAuthenticationSessionError.Code raw values (1 canceledLogin, 2 and 3 presentation context).
// The completion's meaning is BrowserRedirect.webAuthenticationSession(callback:errorCode:underlying:)
// and the one-at-a-time, cancelled-with-its-task state machine is AuthorizationFlight, both tested
// on Linux.
#if canImport(AuthenticationServices) && !os(tvOS)
#if os(watchOS)
// No ASPresentationAnchor on watchOS: no Apple type in this file's public API there.
import AuthenticationServices
#else
public import AuthenticationServices
#endif
public import Foundation

/// Shows a provider's sign-in page in the system's web authentication sheet
/// (`ASWebAuthenticationSession`), for ``AuthService/signIn(with:scopes:redirectTo:using:)``.
///
/// The redirect URL must use the app's own custom scheme (`myapp://auth-callback`); the sheet
/// closes when the server redirects there. Closing the sheet is
/// ``ProviderSignInOutcome/cancelled``; cancelling the task that awaits the sign-in closes it.
///
/// ```swift
/// let outcome = try await auth.signIn(
///     with: "github",
///     redirectTo: URL(string: "myapp://auth-callback")!,
///     using: WebAuthenticationSessionBrowser(anchor: view.window!, ephemeral: true)
/// )
/// ```
@MainActor
public final class WebAuthenticationSessionBrowser: ProviderSignInBrowser {
    private let ephemeral: Bool
    private let flight = AuthorizationFlight<BrowserRedirect>()
    #if !os(watchOS)
    private let anchor: ASPresentationAnchor

    /// Creates a browser that presents from `anchor` (the window of the view that asks).
    ///
    /// - Parameter ephemeral: Asks the browser not to share cookies with the person's normal
    ///   browsing (`prefersEphemeralWebBrowserSession`): no "wants to use … to sign in" prompt,
    ///   and no provider session remembered.
    public init(anchor: ASPresentationAnchor, ephemeral: Bool = false) {
        self.anchor = anchor
        self.ephemeral = ephemeral
    }
    #else
    /// Creates a browser (watchOS presents the sheet itself).
    ///
    /// - Parameter ephemeral: Asks the browser not to share cookies with the person's normal
    ///   browsing (`prefersEphemeralWebBrowserSession`).
    public init(ephemeral: Bool = false) {
        self.ephemeral = ephemeral
    }
    #endif

    /// Opens `url` in the sheet and waits for the redirect to the flow's custom scheme.
    public func open(_ url: URL, for flow: ProviderSignInFlow) async throws -> BrowserRedirect {
        guard let scheme = flow.redirectURL.scheme?.lowercased(), scheme != "http", scheme != "https" else {
            throw AuthError.validationFailed("The redirect URL must use the app's own scheme (myapp://…).")
        }
        let ephemeral = self.ephemeral
        #if !os(watchOS)
        let anchor = self.anchor
        #endif
        return try await flight.perform(.modal) { complete in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { callback, error in
                complete(
                    BrowserRedirect.webAuthenticationSession(
                        callback: callback,
                        errorCode: (error as? ASWebAuthenticationSessionError)?.code.rawValue,
                        underlying: error.map { String(describing: $0) }
                    )
                )
            }
            session.prefersEphemeralWebBrowserSession = ephemeral
            #if !os(watchOS)
            let context = WebAuthenticationPresentationContext(anchor: anchor)
            session.presentationContextProvider = context
            #else
            let context: AnyObject? = nil
            #endif
            if !session.start() {
                complete(.failure(AuthError(code: .unknown, message: "The sign-in page could not be opened.")))
            }
            // The session holds its provider weakly: the flight keeps both until the end.
            return { withExtendedLifetime(context) { session.cancel() } }
        }
    }
}

#if !os(watchOS)
/// The window the sheet is presented from.
@MainActor
final class WebAuthenticationPresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: ASPresentationAnchor

    init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        anchor
    }
}
#endif
#endif
