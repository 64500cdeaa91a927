import Crypto
import Foundation
package import GatehouseCore
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
        _ credential: PasskeyRegistrationCredential,
        challenge: [UInt8]
    ) throws(WebAuthnFailure) -> Registration {
        let clientDataJSON = Array(credential.clientDataJSON)
        try checkClientData(clientDataJSON, type: PasskeyClientData.creation, challenge: challenge)
        let attestation = try AttestationObject(Array(credential.attestationObject))
        let data = attestation.authenticatorData
        try checkAuthenticatorData(data)
        guard let attested = data.attestedCredential else {
            throw .malformed("the authenticator data holds no credential")
        }
        guard attested.credentialID == Array(credential.credentialID) else {
            throw .rejected("the credential id differs from the attested one")
        }
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
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
        _ credential: PasskeyAssertionCredential,
        challenge: [UInt8],
        publicKey: [UInt8]
    ) throws(WebAuthnFailure) -> Assertion {
        let dataBytes = Array(credential.authenticatorData)
        try checkClientData(Array(credential.clientDataJSON), type: PasskeyClientData.assertion, challenge: challenge)
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
        guard key.isValidSignature(Array(credential.signature), for: dataBytes + clientDataHash) else {
            throw .rejected("the signature is invalid")
        }
        return Assertion(
            signCount: data.signCount,
            backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp)
        )
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnFailure) {
        let clientData = try PasskeyClientData(signed: bytes)
        guard clientData.type == type else { throw .rejected("clientDataJSON.type must be \(type)") }
        guard ConstantTime.equal(Array(clientData.challenge), challenge) else {
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
