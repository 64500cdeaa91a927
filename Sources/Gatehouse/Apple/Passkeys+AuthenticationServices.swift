// Apple-only (AuthenticationServices; iOS, iPadOS, Mac Catalyst, macOS, visionOS): the passkey
// requests and credentials of the platform authenticator, converted to and from Gatehouse's
// plain values, for `PasskeyAuthorization` and for SwiftUI's AuthorizationController.
// - ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier:),
//   createCredentialRegistrationRequest(challenge:name:userID:), createCredentialAssertionRequest(challenge:),
//   userVerificationPreference (iOS 15, macOS 12, visionOS 1).
// - excludedCredentials ([ASAuthorizationPlatformPublicKeyCredentialDescriptor]?, settable), declared by
//   ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest, which the platform
//   registration request adopts: iOS 17.4, Mac Catalyst 16.6, macOS 13.5, not visionOS/tvOS/watchOS;
//   used under #if os(iOS) || os(macOS) and #available(iOS 17.4, macOS 14.4, *) (the later of the
//   versions documented and the one the issue names).
//   https://developer.apple.com/documentation/authenticationservices/asauthorizationwebbrowserplatformpublickeycredentialregistrationrequest/excludedcredentials
// - ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID:) (iOS 15, macOS 12).
// - ASAuthorizationPlatformPublicKeyCredentialRegistration: credentialID, rawClientDataJSON,
//   rawAttestationObject (Data?); no transports property (so none are reported, none guessed).
// - ASAuthorizationPlatformPublicKeyCredentialAssertion: credentialID, rawClientDataJSON,
//   rawAuthenticatorData, signature, userID (implicitly unwrapped: checked here, never trapped on).
// - ASAuthorizationError and its Code raw values (1001 canceled, 1006 matchedExcludedCredential).
// What the errors mean is AuthError.passkeyAuthorizationFailure(authorizationErrorCode:underlying:),
// tested on Linux.
#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
public import AuthenticationServices
import Foundation

extension PasskeyRegistrationRequest {
    /// The platform's request for this registration: for `ASAuthorizationController`, or for
    /// SwiftUI's `authorizationController.performRequest(_:)`. Requires user verification and,
    /// where the system supports it (iOS 17.4, macOS 14.4), excludes the account's existing
    /// passkeys, so one device does not get two.
    public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
        let request = provider.createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        request.userVerificationPreference = .required
        #if os(iOS) || os(macOS)
        if #available(iOS 17.4, macOS 14.4, *), !excludedCredentialIDs.isEmpty {
            request.excludedCredentials = excludedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
        }
        #endif
        return request
    }
}

extension PasskeyAssertionRequest {
    /// The platform's request for this sign-in (any passkey of the RP: no user name needed,
    /// AutoFill works).
    public func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
        let request = provider.createCredentialAssertionRequest(challenge: challenge)
        request.userVerificationPreference = .required
        return request
    }
}

extension PasskeyRegistrationCredential {
    /// The new passkey the platform authenticator returned.
    ///
    /// - Throws: ``ErrorCode/invalidResponse`` when it carries no attestation object.
    public init(_ registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) throws {
        guard let attestation = registration.rawAttestationObject else { throw AuthError.unexpectedPasskeyCredential() }
        self.init(
            credentialID: registration.credentialID,
            clientDataJSON: registration.rawClientDataJSON,
            attestationObject: attestation
        )
    }
}

extension PasskeyAssertionCredential {
    /// The sign-in the platform authenticator returned.
    ///
    /// - Throws: ``ErrorCode/invalidResponse`` when it lacks its authenticator data, signature
    ///   or user handle (implicitly unwrapped in the SDK: checked, never trapped on).
    public init(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) throws {
        let authenticatorData: Data? = assertion.rawAuthenticatorData
        let signature: Data? = assertion.signature
        let userHandle: Data? = assertion.userID
        guard let authenticatorData, let signature, let userHandle else {
            throw AuthError.unexpectedPasskeyCredential()
        }
        self.init(
            credentialID: assertion.credentialID,
            clientDataJSON: assertion.rawClientDataJSON,
            authenticatorData: authenticatorData,
            signature: signature,
            userHandle: userHandle
        )
    }
}

extension PasskeyAuthenticatorResponse {
    /// The passkey credential of an `ASAuthorization`, read on the delegate's actor.
    init(_ credential: any ASAuthorizationCredential) throws {
        if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
            self = .registration(try PasskeyRegistrationCredential(registration))
        } else if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
            self = .assertion(try PasskeyAssertionCredential(assertion))
        } else {
            throw AuthError.unexpectedPasskeyCredential()
        }
    }
}

extension AuthError {
    /// The error for a failed passkey request (`ASAuthorizationError` codes, see
    /// ``passkeyAuthorizationFailure(authorizationErrorCode:underlying:)``).
    public static func passkeyAuthorizationFailure(_ error: any Error) -> AuthError {
        if let error = error as? AuthError { return error }
        return passkeyAuthorizationFailure(
            authorizationErrorCode: (error as? ASAuthorizationError)?.code.rawValue,
            underlying: String(describing: error)
        )
    }
}
#endif
