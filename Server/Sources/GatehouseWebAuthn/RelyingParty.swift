import Crypto
import Foundation
import GatehouseCore
import GatehouseServerSupport

/// The server as a WebAuthn relying party: verifies registrations (§7.1) and assertions
/// (§7.2) against its RP id and origins. Policy: user presence and user verification are
/// required (passkeys replace a password), attestation `none` or `packed` self.
package struct RelyingParty: Sendable {
    package let id: String
    package let name: String
    package let origins: [String]

    /// The relying party for RP id `id`, shown to people as `name`, accepting client data from
    /// `origins`.
    package init(id: String, name: String, origins: [String]) {
        self.id = id
        self.name = name
        self.origins = origins
    }

    /// SHA-256 of the RP id, which authenticator data must start with.
    var idHash: [UInt8] { Array(SHA256.hash(data: Data(id.utf8))) }

    /// A verified registration: what is stored for the new credential.
    package struct Registration: Sendable {
        package let credentialID: [UInt8]
        package let publicKey: [UInt8]
        package let algorithm: Int64
        package let aaguid: [UInt8]
        package let signCount: UInt32
        package let attestationType: String
        package let backupEligible: Bool
        package let backedUp: Bool
        package let transports: [String]
    }

    /// Verifies `credential` as the answer to a registration `challenge`.
    package func verifyRegistration(
        _ credential: PublicKeyCredential,
        challenge: [UInt8]
    ) throws(WebAuthnFailure) -> Registration {
        guard let attestationBytes = credential.attestationObject else {
            throw .malformed("response.attestationObject is missing")
        }
        try checkClientData(credential.clientDataJSON, type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(attestationBytes)
        let data = attestation.authenticatorData
        try checkAuthenticatorData(data)
        guard let attested = data.attestedCredential else {
            throw .malformed("the authenticator data holds no credential")
        }
        guard attested.credentialID == credential.rawID else {
            throw .rejected("the credential id differs from the attested one")
        }
        let clientDataHash = Array(SHA256.hash(data: credential.clientDataJSON))
        let attestationType = try attestation.verify(clientDataHash: clientDataHash)
        return Registration(
            credentialID: attested.credentialID,
            publicKey: attested.publicKeyBytes,
            algorithm: attested.publicKey.algorithm,
            aaguid: attested.aaguid,
            signCount: data.signCount,
            attestationType: attestationType,
            backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp),
            transports: credential.transports
        )
    }

    /// A verified assertion's authenticator state.
    package struct Assertion: Sendable {
        package let signCount: UInt32
        package let backupEligible: Bool
        package let backedUp: Bool
    }

    /// Verifies `credential` as the answer to an authentication `challenge`, signed by the
    /// stored COSE `publicKey`.
    package func verifyAssertion(
        _ credential: PublicKeyCredential,
        challenge: [UInt8],
        publicKey: [UInt8]
    ) throws(WebAuthnFailure) -> Assertion {
        guard let dataBytes = credential.authenticatorData, let signature = credential.signature else {
            throw .malformed("response.authenticatorData or response.signature is missing")
        }
        try checkClientData(credential.clientDataJSON, type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(dataBytes)
        guard data.attestedCredential == nil else { throw .malformed("an assertion carries no attested credential") }
        try checkAuthenticatorData(data)
        let key: COSEKey
        do {
            key = try COSEKey(try CBORDecoder().decode(publicKey))
        } catch {
            throw .rejected("the stored key cannot be read")
        }
        let clientDataHash = Array(SHA256.hash(data: credential.clientDataJSON))
        guard key.isValidSignature(signature, for: dataBytes + clientDataHash) else {
            throw .rejected("the signature is invalid")
        }
        return Assertion(
            signCount: data.signCount,
            backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp)
        )
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnFailure) {
        let clientData = try ClientData(bytes)
        guard clientData.type == type else { throw .rejected("clientDataJSON.type must be \(type)") }
        guard let received = Base64URL.decode(clientData.challenge), ConstantTime.equal(received, challenge) else {
            throw .rejected("the challenge is not the one issued")
        }
        guard origins.contains(clientData.origin) else {
            throw .rejected("origin “\(clientData.origin.prefix(100))” is not allowed")
        }
        guard !clientData.crossOrigin else { throw .rejected("cross-origin ceremonies are not accepted") }
    }

    private func checkAuthenticatorData(_ data: AuthenticatorData) throws(WebAuthnFailure) {
        guard data.rpIDHash == idHash else { throw .rejected("the credential is for another RP id") }
        guard data.flags.contains(.userPresent) else { throw .rejected("user presence is required") }
        guard data.flags.contains(.userVerified) else { throw .rejected("user verification is required") }
        if data.flags.contains(.backedUp), !data.flags.contains(.backupEligible) {
            throw .malformed("a credential cannot be backed up without being backup eligible")
        }
    }
}
