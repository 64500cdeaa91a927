import Foundation
package import GatehouseCore

/// What the server reads of a verify request's `credential` (WebAuthn §5.1 `toJSON()`): the
/// shape is GatehouseCore's (``PasskeyRegistrationCredential``, ``PasskeyAssertionCredential``);
/// the bounds are the server's, so that any credential outside them is a
/// ``WebAuthnFailure/malformed(_:)`` with its reason before any CBOR or signature is looked at.
enum CredentialBounds {
    /// The most bytes a binary field may have (an attestation object with a 4096-bit RSA key is
    /// far below; 43,000 base64url characters).
    static let maximumFieldBytes = 32_250
    /// The most transports kept, and the longest name kept.
    static let maximumTransports = 8
    static let maximumTransportLength = 32

    /// Checks the credential id (1 to 1023 bytes) and the size of each binary field.
    static func check(id: Data, fields: KeyValuePairs<String, Data>) throws(WebAuthnFailure) {
        guard !id.isEmpty, id.count <= AuthenticatorData.maximumCredentialIDLength else {
            throw .malformed("credential id must be base64url of 1 to 1023 bytes")
        }
        for (name, bytes) in fields where bytes.count > maximumFieldBytes {
            throw .malformed("credential.response.\(name) is too large")
        }
    }

    /// `credential` read as `Credential`, or the reason it cannot be.
    static func read<Credential: PasskeyJSON>(
        _ json: JSONValue?,
        as _: Credential.Type
    ) throws(WebAuthnFailure)
        -> Credential
    {
        do {
            return try Credential(json: json ?? .null)
        } catch {
            throw .malformed(error.reason)
        }
    }
}

extension PasskeyRegistrationCredential {
    /// The `credential` of a registration verify request, within the server's bounds; of the
    /// transports the authenticator reports, the first 8 of at most 32 characters are kept.
    package init(request json: JSONValue?) throws(WebAuthnFailure) {
        self = try CredentialBounds.read(json, as: Self.self)
        try CredentialBounds.check(
            id: credentialID,
            fields: ["clientDataJSON": clientDataJSON, "attestationObject": attestationObject]
        )
        transports = Array(
            transports.filter { $0.count <= CredentialBounds.maximumTransportLength }
                .prefix(CredentialBounds.maximumTransports)
        )
    }
}

extension AnyPasskeyCredential {
    /// The id and client data of a verify request's `credential`, within the server's bounds:
    /// what finds the passkey a sign-in names.
    package init(request json: JSONValue?) throws(WebAuthnFailure) {
        self = try CredentialBounds.read(json, as: Self.self)
        try CredentialBounds.check(id: credentialID, fields: ["clientDataJSON": clientDataJSON])
    }
}

extension PasskeyAssertionCredential {
    /// The `credential` of a sign-in verify request, within the server's bounds.
    package init(request json: JSONValue?) throws(WebAuthnFailure) {
        self = try CredentialBounds.read(json, as: Self.self)
        try CredentialBounds.check(
            id: credentialID,
            fields: [
                "clientDataJSON": clientDataJSON, "authenticatorData": authenticatorData, "signature": signature,
                "userHandle": userHandle,
            ]
        )
    }
}
