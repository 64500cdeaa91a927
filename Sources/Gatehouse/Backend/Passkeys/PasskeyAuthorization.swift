// Apple-only call sites in this file (AuthenticationServices; iOS, macOS, visionOS):
// ASAuthorizationPlatformPublicKeyCredentialProvider (createCredentialRegistrationRequest,
// createCredentialAssertionRequest), ASAuthorizationController (performRequests,
// performAutoFillAssistedRequests on iOS and visionOS), its delegate and presentation context,
// and the registration and assertion credentials it returns. Everything else (the options,
// the server calls, the credentials' JSON) is in the plain-value files beside it, which build
// and are tested on Linux with SoftwarePasskeyAuthenticator.
#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
public import AuthenticationServices
public import Foundation

/// Runs one passkey ceremony with the platform authenticator (Face ID, Touch ID, iCloud
/// Keychain, a phone nearby) and returns its credential as a plain value.
///
/// The app needs the associated domain `webcredentials:<rp id>` and the domain's
/// `apple-app-site-association` file (`gatehouse-server apple-app-site-association`).
@MainActor
public final class PasskeyAuthorization: NSObject {
    private let anchor: ASPresentationAnchor
    private var continuation: CheckedContinuation<ASAuthorization, any Error>?
    private var controller: ASAuthorizationController?

    /// Creates a ceremony presented from `anchor` (the app's key window).
    public init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// Creates a passkey for the request's RP and user.
    public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistrationCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
            relyingPartyIdentifier: request.relyingPartyID
        )
        let registration = provider.createCredentialRegistrationRequest(
            challenge: request.challenge,
            name: request.userName,
            userID: request.userID
        )
        registration.userVerificationPreference = .required
        let authorization = try await perform(registration, autoFill: false)
        guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
            let attestation = credential.rawAttestationObject
        else { throw Self.unexpectedCredential }
        return PasskeyRegistrationCredential(
            credentialID: credential.credentialID,
            clientDataJSON: credential.rawClientDataJSON,
            attestationObject: attestation,
            transports: ["internal", "hybrid"]
        )
    }

    /// Signs in with any passkey of the request's RP. With `autoFill` (iOS and visionOS), the
    /// passkeys appear in the QuickType bar of a text field whose content type is
    /// `.username`, and the call returns when the user picks one.
    public func signIn(
        _ request: PasskeyAssertionRequest,
        autoFill: Bool = false
    ) async throws -> PasskeyAssertionCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
            relyingPartyIdentifier: request.relyingPartyID
        )
        let assertion = provider.createCredentialAssertionRequest(challenge: request.challenge)
        assertion.userVerificationPreference = .required
        let authorization = try await perform(assertion, autoFill: autoFill)
        // `rawAuthenticatorData`, `signature` and `userID` are implicitly unwrapped in the SDK:
        // unwrap them here rather than trap on a credential that lacks one.
        guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
            let authenticatorData = credential.rawAuthenticatorData,
            let signature = credential.signature,
            let userHandle = credential.userID
        else { throw Self.unexpectedCredential }
        return PasskeyAssertionCredential(
            credentialID: credential.credentialID,
            clientDataJSON: credential.rawClientDataJSON,
            authenticatorData: authenticatorData,
            signature: signature,
            userHandle: userHandle
        )
    }

    /// Cancels a ceremony waiting (an AutoFill request when the screen goes away).
    public func cancel() {
        controller?.cancel()
    }

    private func perform(_ request: ASAuthorizationRequest, autoFill: Bool) async throws -> ASAuthorization {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            #if os(iOS) || os(visionOS)
            if autoFill {
                controller.performAutoFillAssistedRequests()
                return
            }
            #endif
            controller.performRequests()
        }
    }

    private func finish(_ result: Result<ASAuthorization, any Error>) {
        let continuation = self.continuation
        self.continuation = nil
        controller = nil
        switch result {
        case .success(let authorization):
            continuation?.resume(returning: authorization)
        case .failure(let error as ASAuthorizationError) where error.code == .canceled:
            continuation?.resume(throwing: AuthError(code: .cancelled, message: "Passkey request cancelled."))
        case .failure(let error):
            continuation?.resume(
                throwing: AuthError(
                    code: .unknown,
                    message: "The passkey request failed.",
                    recoverySuggestion: "Check the app's associated domain (webcredentials:<rp id>) and the "
                        + "domain's apple-app-site-association file.",
                    underlying: String(describing: error)
                )
            )
        }
    }

    private static let unexpectedCredential = AuthError(
        code: .invalidResponse,
        message: "The system returned a credential that is not a passkey."
    )
}

extension PasskeyAuthorization: @preconcurrency ASAuthorizationControllerDelegate {
    public func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        finish(.success(authorization))
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        finish(.failure(error))
    }
}

extension PasskeyAuthorization: @preconcurrency ASAuthorizationControllerPresentationContextProviding {
    public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor
    }
}

extension AuthPasskeys {
    /// Signs in with a passkey from the platform authenticator; `autoFill` offers the passkeys
    /// in a `.username` text field's QuickType bar (iOS, visionOS) instead of a sheet.
    @discardableResult
    public func signInWithPasskey(anchor: ASPresentationAnchor, autoFill: Bool = false) async throws -> User {
        let request = try await signInRequest()
        let credential = try await PasskeyAuthorization(anchor: anchor).signIn(request, autoFill: autoFill)
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
        let credential = try await PasskeyAuthorization(anchor: anchor).register(request)
        return try await register(credential, for: request, name: name)
    }

    /// Makes the signed-in guest a permanent account with one passkey, keeping its id.
    ///
    /// - Throws: ``ErrorCode/notSignedIn`` when no guest is signed in.
    @discardableResult
    public func upgradeGuestWithPasskey(anchor: ASPresentationAnchor, name: String? = nil) async throws -> Passkey {
        guard service.currentUser?.isAnonymous == true else {
            throw AuthError(
                code: .notSignedIn,
                message: "No guest is signed in.",
                recoverySuggestion: "Sign in as a guest first, or add a passkey to the account with registerPasskey."
            )
        }
        return try await registerPasskey(anchor: anchor, name: name)
    }
}
#endif
