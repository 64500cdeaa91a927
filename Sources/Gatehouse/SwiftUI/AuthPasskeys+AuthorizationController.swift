// Apple-only (SwiftUI with AuthenticationServices: the `_AuthenticationServices_SwiftUI`
// cross-import overlay, so this file imports both; iOS 16.4, macOS 13.3, Mac Catalyst 16.4,
// visionOS 1 — below this package's minimums; not tvOS or watchOS, which have no passkey
// provider here):
// - AuthorizationController, a @MainActor struct from `@Environment(\.authorizationController)`:
//   performRequest(_:) async throws -> ASAuthorizationResult (@MainActor);
//   performAutoFillAssistedRequest(_:) (iOS 16.4 and visionOS only: not macOS, not Mac Catalyst).
//   https://developer.apple.com/documentation/authenticationservices/authorizationcontroller
//   https://developer.apple.com/documentation/authenticationservices/authorizationcontroller/performautofillassistedrequest(_:)
// - ASAuthorizationResult: .passkeyRegistration(_:) and .passkeyAssertion(_:).
//   https://developer.apple.com/documentation/authenticationservices/asauthorizationresult
// The requests come from PasskeyRegistrationRequest/PasskeyAssertionRequest.platformRequest(), the
// one-at-a-time and cancellation rules from AuthorizationFlight (tested on Linux).
#if canImport(SwiftUI) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
public import AuthenticationServices
public import SwiftUI

extension PasskeyRegistrationCredential {
    /// The new passkey in what SwiftUI's `authorizationController` returned.
    ///
    /// ```swift
    /// let request = try await auth.passkeys.registrationRequest()
    /// let result = try await authorizationController.performRequest(request.platformRequest())
    /// try await auth.passkeys.register(PasskeyRegistrationCredential(result), for: request)
    /// ```
    public init(_ result: ASAuthorizationResult) throws {
        guard case .passkeyRegistration(let registration) = result else { throw AuthError.unexpectedPasskeyCredential() }
        try self.init(registration)
    }
}

extension PasskeyAssertionCredential {
    /// The sign-in in what SwiftUI's `authorizationController` returned.
    public init(_ result: ASAuthorizationResult) throws {
        guard case .passkeyAssertion(let assertion) = result else { throw AuthError.unexpectedPasskeyCredential() }
        try self.init(assertion)
    }
}

extension AuthPasskeys {
    /// Signs in with a passkey through SwiftUI's authorization controller: no window needed.
    ///
    /// ```swift
    /// @Environment(\.authorizationController) private var authorizationController
    /// Button("Sign in with a passkey") {
    ///     Task { try await auth.passkeys.signIn(using: authorizationController) }
    /// }
    /// ```
    @discardableResult
    public func signIn(using controller: AuthorizationController) async throws -> User {
        let request = try await signInRequest()
        let credential = try await perform(.modal) { try await controller.performRequest(request.platformRequest()) }
            .assertion()
        return try await signIn(credential, for: request)
    }

    #if os(visionOS) || (os(iOS) && !targetEnvironment(macCatalyst))
    /// Offers the server's passkeys in the QuickType bar of the screen's `.username` text field
    /// and signs in with the one the person picks (iOS, iPadOS, visionOS).
    ///
    /// Start it in the sign-in screen's `.task`: when the screen goes away the task is
    /// cancelled, and with it the request. A modal sign-in started meanwhile replaces it.
    ///
    /// ```swift
    /// TextField("E-mail", text: $email).textContentType(.username)
    ///     .task { try? await auth.passkeys.signInWithAutoFill(using: authorizationController) }
    /// ```
    @discardableResult
    public func signInWithAutoFill(using controller: AuthorizationController) async throws -> User {
        let request = try await signInRequest()
        let credential = try await perform(.autoFill) {
            try await controller.performAutoFillAssistedRequest(request.platformRequest())
        }
        .assertion()
        return try await signIn(credential, for: request)
    }
    #endif

    /// Creates a passkey for the signed-in user through SwiftUI's authorization controller (a
    /// guest becomes a permanent account, keeping its id).
    ///
    /// - Parameter nonce: A reauthentication code, when the server asks for one.
    @discardableResult
    public func register(using controller: AuthorizationController, name: String? = nil, nonce: String? = nil)
        async throws -> Passkey
    {
        let request = try await registrationRequest(nonce: nonce)
        let credential = try await perform(.modal) { try await controller.performRequest(request.platformRequest()) }
            .registration()
        return try await register(credential, for: request, name: name)
    }

    /// Runs one SwiftUI authorization through the service's ``AuthorizationFlight``: one at a
    /// time, cancelled with the task that awaits it, its result converted on the main actor.
    private func perform(
        _ presentation: AuthorizationFlight<PasskeyAuthenticatorResponse>.Presentation,
        _ request: @escaping @MainActor () async throws -> ASAuthorizationResult
    ) async throws -> PasskeyAuthenticatorResponse {
        try await service.passkeyFlight.perform(presentation) { complete in
            let task = Task { @MainActor in
                do {
                    complete(.success(try PasskeyAuthenticatorResponse(await request())))
                } catch {
                    complete(.failure(.passkeyAuthorizationFailure(error)))
                }
            }
            return { task.cancel() }
        }
    }
}

extension PasskeyAuthenticatorResponse {
    /// The passkey credential in what SwiftUI's `authorizationController` returned.
    init(_ result: ASAuthorizationResult) throws {
        switch result {
        case .passkeyRegistration(let registration): self = .registration(try PasskeyRegistrationCredential(registration))
        case .passkeyAssertion(let assertion): self = .assertion(try PasskeyAssertionCredential(assertion))
        default: throw AuthError.unexpectedPasskeyCredential()
        }
    }
}
#endif
