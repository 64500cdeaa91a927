// Apple-only call sites in this file (AuthenticationServices; iOS, iPadOS, Mac Catalyst, macOS,
// visionOS; not tvOS, not watchOS):
// - ASAuthorizationController: init(authorizationRequests:), delegate and presentationContextProvider
//   (weak), performRequests(), performAutoFillAssistedRequests() (iOS 16 and visionOS only: not
//   macOS, not Mac Catalyst), cancel() (iOS 16, macOS 13, Mac Catalyst 16, visionOS 1);
//   https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/cancel()
//   https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performautofillassistedrequests()
// - ASAuthorizationControllerDelegate and ASAuthorizationControllerPresentationContextProviding,
//   both @MainActor protocols (NS_SWIFT_UI_ACTOR), so the conformances below are plain ones;
//   https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
// - ASAuthorization (not Sendable): its credential is converted to a PasskeyAuthenticatorResponse
//   inside the main-actor delegate callback, and only that Sendable value leaves it.
// The state machine (one request at a time, cancelled with its task, completed once) is
// AuthorizationFlight, tested on Linux with a fake controller; the requests and credentials are
// built in Apple/Passkeys+AuthenticationServices.swift.
#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
public import AuthenticationServices
import Foundation

/// Runs passkey requests with the platform authenticator (Face ID, Touch ID, iCloud Keychain, a
/// phone nearby) from a window the app gives, for UIKit and AppKit code. SwiftUI code needs no
/// window: use `@Environment(\.authorizationController)` with
/// ``AuthPasskeys/signIn(using:)`` and ``AuthPasskeys/register(using:name:nonce:)``.
///
/// One request runs at a time; cancelling the task that awaits a request cancels it
/// (`ASAuthorizationController.cancel()`), so an AutoFill-assisted sign-in started in a
/// screen's `.task` ends when the screen goes away.
///
/// The app needs the associated domain `webcredentials:<rp id>` and the domain's
/// `apple-app-site-association` file (`gatehouse-server apple-app-site-association`).
@MainActor
public final class PasskeyAuthorization {
    private let anchor: ASPresentationAnchor
    private let flight: AuthorizationFlight<PasskeyAuthenticatorResponse>

    /// Creates an authorizer presenting from `anchor` (the window of the view that asks).
    public convenience init(anchor: ASPresentationAnchor) {
        self.init(anchor: anchor, flight: AuthorizationFlight())
    }

    init(anchor: ASPresentationAnchor, flight: AuthorizationFlight<PasskeyAuthenticatorResponse>) {
        self.anchor = anchor
        self.flight = flight
    }

    /// Creates a passkey for the request's RP and user (existing passkeys of the account are
    /// excluded where the system supports it: iOS 17.4, macOS 14.4).
    public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistrationCredential {
        try await perform(request.platformRequest(), presentation: .modal).registration()
    }

    /// Signs in with any passkey of the request's RP. With `autoFill` (iOS and visionOS; not
    /// Mac Catalyst or macOS, where it is a sheet), the passkeys appear in the QuickType bar of
    /// a text field whose content type is `.username`, and the call returns when the person
    /// picks one. Start it in the sign-in screen's `.task`, so that it is cancelled when the
    /// screen goes away.
    public func signIn(_ request: PasskeyAssertionRequest, autoFill: Bool = false) async throws -> PasskeyAssertionCredential {
        try await perform(request.platformRequest(), presentation: autoFill ? .autoFill : .modal).assertion()
    }

    private func perform(
        _ request: ASAuthorizationRequest,
        presentation: AuthorizationFlight<PasskeyAuthenticatorResponse>.Presentation
    ) async throws -> PasskeyAuthenticatorResponse {
        let anchor = self.anchor
        return try await flight.perform(presentation) { complete in
            let controller = ASAuthorizationController(authorizationRequests: [request])
            let delegate = PasskeyControllerDelegate(anchor: anchor, complete: complete)
            controller.delegate = delegate
            controller.presentationContextProvider = delegate
            #if os(visionOS) || (os(iOS) && !targetEnvironment(macCatalyst))
            if presentation == .autoFill {
                controller.performAutoFillAssistedRequests()
            } else {
                controller.performRequests()
            }
            #else
            controller.performRequests()
            #endif
            // The controller holds its delegate weakly: the flight keeps both until the end.
            return { withExtendedLifetime(delegate) { controller.cancel() } }
        }
    }
}

/// The delegate of one request: turns the system's answer into a Sendable value on the main
/// actor and reports it once.
@MainActor
final class PasskeyControllerDelegate: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
{
    private let anchor: ASPresentationAnchor
    private let complete: @MainActor (Result<PasskeyAuthenticatorResponse, AuthError>) -> Void

    init(anchor: ASPresentationAnchor, complete: @escaping @MainActor (Result<PasskeyAuthenticatorResponse, AuthError>) -> Void) {
        self.anchor = anchor
        self.complete = complete
    }

    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        // `authorization` is not Sendable: read it here, send only our value.
        complete(Result { try PasskeyAuthenticatorResponse(authorization.credential) }.mapError(AuthError.wrapping))
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        complete(.failure(.passkeyAuthorizationFailure(error)))
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor
    }
}

extension AuthPasskeys {
    /// Signs in with a passkey from the platform authenticator, presented from `anchor`;
    /// `autoFill` offers the passkeys in a `.username` field's QuickType bar (iOS, visionOS)
    /// instead of a sheet; start that in the screen's `.task`.
    @discardableResult
    public func signInWithPasskey(anchor: ASPresentationAnchor, autoFill: Bool = false) async throws -> User {
        let request = try await signInRequest()
        let credential = try await PasskeyAuthorization(anchor: anchor, flight: service.passkeyFlight)
            .signIn(request, autoFill: autoFill)
        return try await signIn(credential, for: request)
    }

    /// Creates a passkey for the signed-in user with the platform authenticator.
    @discardableResult
    public func registerPasskey(
        anchor: ASPresentationAnchor,
        name: String? = nil,
        nonce: String? = nil
    ) async throws
        -> Passkey
    {
        let request = try await registrationRequest(nonce: nonce)
        let credential = try await PasskeyAuthorization(anchor: anchor, flight: service.passkeyFlight).register(request)
        return try await register(credential, for: request, name: name)
    }

    /// Makes the signed-in guest a permanent account with one passkey, keeping its id.
    ///
    /// - Throws: ``ErrorCode/notSignedIn`` when no guest is signed in.
    @discardableResult
    public func upgradeGuestWithPasskey(anchor: ASPresentationAnchor, name: String? = nil) async throws -> Passkey {
        try requireGuest()
        return try await registerPasskey(anchor: anchor, name: name)
    }
}
#endif
