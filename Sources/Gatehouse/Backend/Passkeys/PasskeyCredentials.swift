public import Foundation
public import GatehouseCore

/// A new passkey as an authenticator returns it (WebAuthn `AuthenticatorAttestationResponse`).
public struct PasskeyRegistrationCredential: Sendable, Equatable {
    /// The new credential's id (WebAuthn `rawId`).
    public var credentialID: Data
    /// The client data the authenticator signed over: the challenge, the origin and the ceremony's type, as JSON bytes.
    public var clientDataJSON: Data
    /// The attestation object (CBOR): the authenticator data with the new public key, and its attestation.
    public var attestationObject: Data
    /// How the authenticator can be reached (`internal`, `hybrid`, …), as the authenticator
    /// reports it; empty when it reports none (Apple's platform authenticator does not), and
    /// then left out of the JSON rather than guessed.
    public var transports: [String]

    /// Creates the credential from the authenticator's answer.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = []) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }

    /// The credential's JSON form (`toJSON()`), as the server reads it.
    public var json: JSONValue {
        let id = JSONValue.string(Base64URL.string(credentialID))
        var response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL.string(clientDataJSON)),
            "attestationObject": .string(Base64URL.string(attestationObject)),
        ]
        if !transports.isEmpty { response["transports"] = .array(transports.map(JSONValue.string)) }
        return ["id": id, "rawId": id, "type": "public-key", "response": .object(response)]
    }
}

/// A passkey sign-in as an authenticator returns it (WebAuthn `AuthenticatorAssertionResponse`).
public struct PasskeyAssertionCredential: Sendable, Equatable {
    /// The id of the passkey that signed (WebAuthn `rawId`).
    public var credentialID: Data
    /// The client data the authenticator signed over: the challenge, the origin and the ceremony's type, as JSON bytes.
    public var clientDataJSON: Data
    /// The authenticator data: the RP id's hash, the flags (user present, user verified, backup) and the signature counter.
    public var authenticatorData: Data
    /// The signature over the authenticator data and the client data's SHA-256.
    public var signature: Data
    /// The user handle the passkey stored at registration.
    public var userHandle: Data

    /// Creates the assertion from the authenticator's answer.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// The credential's JSON form (`toJSON()`), as the server reads it.
    public var json: JSONValue {
        let id = JSONValue.string(Base64URL.string(credentialID))
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": .string(Base64URL.string(clientDataJSON)),
                "authenticatorData": .string(Base64URL.string(authenticatorData)),
                "signature": .string(Base64URL.string(signature)),
                "userHandle": .string(Base64URL.string(userHandle)),
            ],
        ]
    }
}

/// One of the user's passkeys (never its key).
public struct Passkey: Sendable, Equatable, Identifiable {
    public var id: UUID
    /// The name the user gave it, if any.
    public var name: String?
    /// When the passkey was registered.
    public var createdAt: Date
    /// When the passkey last signed in; `nil` when it never did.
    public var lastUsedAt: Date?

    /// Creates a passkey entry.
    public init(id: UUID, name: String?, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The passkey the server listed.
    public init(_ wire: WirePasskey) {
        self.init(id: wire.id, name: wire.friendlyName, createdAt: wire.createdAt, lastUsedAt: wire.lastUsedAt)
    }
}
