import Foundation
import Gatehouse
import GatehouseCore

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The WebAuthn checks of the in-memory backend, by the server's rules: client data of the
/// right type, challenge and origin, never cross-origin; authenticator data for the RP id with
/// user presence and user verification; attestation `none` or `packed` self attestation; ES256
/// and EdDSA keys (a server also takes RS256), signatures verified with swift-crypto.
struct InMemoryRelyingParty {
    let id: String
    let origins: [String]

    /// A verified new credential.
    struct Registration {
        let credentialID: Data
        let publicKey: PublicKey
        let signCount: UInt32
        let backupEligible: Bool
        let backedUp: Bool
    }

    /// A verified assertion's authenticator state.
    struct Assertion {
        let signCount: UInt32
        let backupEligible: Bool
        let backedUp: Bool
    }

    /// A credential's public key.
    enum PublicKey {
        case es256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)

        init(cose: CBORValue) throws(AuthError) {
            let type = cose[.integer(1)]?.integer
            let algorithm = cose[.integer(3)]?.integer
            switch (type, algorithm) {
            case (2, -7):
                guard cose[.integer(-1)]?.integer == 1, let x = cose[.integer(-2)]?.bytes,
                    let y = cose[.integer(-3)]?.bytes, x.count == 32, y.count == 32,
                    let key = try? P256.Signing.PublicKey(x963Representation: Data([4]) + x + y)
                else { throw refusal("the ES256 key is not a P-256 point") }
                self = .es256(key)
            case (1, -8):
                guard cose[.integer(-1)]?.integer == 6, let x = cose[.integer(-2)]?.bytes, x.count == 32,
                    let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
                else { throw refusal("the EdDSA key is not an Ed25519 key") }
                self = .ed25519(key)
            default:
                throw refusal("the key's algorithm is not supported (ES256 or EdDSA)")
            }
        }

        var algorithm: Int64 {
            switch self {
            case .es256: -7
            case .ed25519: -8
            }
        }

        func isValidSignature(_ signature: Data, for message: Data) -> Bool {
            switch self {
            case .es256(let key):
                guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
                return key.isValidSignature(parsed, for: message)
            case .ed25519(let key):
                return key.isValidSignature(signature, for: message)
            }
        }
    }

    func verifyRegistration(
        _ credential: PasskeyRegistrationCredential,
        challenge: Data
    ) throws(AuthError) -> Registration {
        try checkClientData(credential.clientDataJSON, type: PasskeyClientData.creation, challenge: challenge)
        let attestation: CBORValue
        do {
            attestation = try CBORDecoder().decode(Array(credential.attestationObject))
        } catch {
            throw Self.refusal("attestationObject is not valid CBOR")
        }
        guard attestation.mapEntries?.count == 3, let format = attestation[text: "fmt"]?.text,
            let statement = attestation[text: "attStmt"], let entries = statement.mapEntries,
            let authData = attestation[text: "authData"]?.bytes.map({ Data($0) })
        else { throw Self.refusal("attestationObject must be a map of fmt, attStmt and authData") }
        let data = try AuthenticatorData(authData)
        try check(data)
        guard let attested = data.credential else { throw Self.refusal("the authenticator data holds no credential") }
        guard attested.id == credential.credentialID else {
            throw Self.refusal("the credential id differs from the attested one")
        }
        switch format {
        case "none":
            guard entries.isEmpty else { throw Self.refusal("a none attestation must have an empty statement") }
        case "packed":
            guard entries.count == 2, statement[text: "alg"]?.integer == attested.key.algorithm,
                let signature = statement[text: "sig"]?.bytes.map({ Data($0) }),
                attested.key.isValidSignature(
                    signature,
                    for: authData + Data(SHA256.hash(data: credential.clientDataJSON))
                )
            else { throw Self.refusal("only a valid packed self attestation is accepted") }
        default:
            throw Self.refusal("attestation format “\(format.prefix(32))” is not supported")
        }
        return Registration(
            credentialID: attested.id,
            publicKey: attested.key,
            signCount: data.signCount,
            backupEligible: data.flags & AuthenticatorData.backupEligible != 0,
            backedUp: data.flags & AuthenticatorData.backedUp != 0
        )
    }

    func verifyAssertion(
        _ credential: PasskeyAssertionCredential,
        challenge: Data,
        key: PublicKey
    ) throws(AuthError) -> Assertion {
        try checkClientData(credential.clientDataJSON, type: PasskeyClientData.assertion, challenge: challenge)
        let data = try AuthenticatorData(credential.authenticatorData)
        guard data.credential == nil else { throw Self.refusal("an assertion carries no attested credential") }
        try check(data)
        let message = credential.authenticatorData + Data(SHA256.hash(data: credential.clientDataJSON))
        guard key.isValidSignature(credential.signature, for: message) else {
            throw Self.refusal("the signature is invalid")
        }
        return Assertion(
            signCount: data.signCount,
            backupEligible: data.flags & AuthenticatorData.backupEligible != 0,
            backedUp: data.flags & AuthenticatorData.backedUp != 0
        )
    }

    private func checkClientData(_ json: Data, type: String, challenge: Data) throws(AuthError) {
        let clientData: PasskeyClientData
        do {
            clientData = try PasskeyClientData(jsonData: json)
        } catch {
            throw Self.refusal(error.reason)
        }
        guard clientData.type == type else { throw Self.refusal("clientDataJSON.type must be \(type)") }
        guard clientData.challenge == challenge else { throw Self.refusal("the challenge is not the one issued") }
        guard origins.contains(clientData.origin) else {
            throw Self.refusal("origin “\(clientData.origin.prefix(100))” is not allowed")
        }
        guard !clientData.crossOrigin else { throw Self.refusal("cross-origin ceremonies are not accepted") }
    }

    private func check(_ data: AuthenticatorData) throws(AuthError) {
        guard data.rpIDHash == Data(SHA256.hash(data: Data(id.utf8))) else {
            throw Self.refusal("the credential is for another RP id")
        }
        guard data.flags & AuthenticatorData.userPresent != 0 else { throw Self.refusal("user presence is required") }
        guard data.flags & AuthenticatorData.userVerified != 0 else {
            throw Self.refusal("user verification is required")
        }
        if data.flags & AuthenticatorData.backedUp != 0, data.flags & AuthenticatorData.backupEligible == 0 {
            throw Self.refusal("a credential cannot be backed up without being backup eligible")
        }
    }

    /// 400 `webauthn_verification_failed`, the server's answer to a credential that fails a check.
    static func refusal(_ detail: String) -> AuthError {
        AuthError(
            code: .webAuthnVerificationFailed,
            message: "Credential verification failed: \(detail).",
            recoverySuggestion: "Start the passkey request again.",
            httpStatus: 400
        )
    }
}

/// Authenticator data (WebAuthn §6.1): the RP id hash, flags, counter and, at registration,
/// the attested credential; nothing may be left over.
private struct AuthenticatorData {
    static let userPresent: UInt8 = 1 << 0
    static let userVerified: UInt8 = 1 << 2
    static let backupEligible: UInt8 = 1 << 3
    static let backedUp: UInt8 = 1 << 4
    static let attested: UInt8 = 1 << 6
    static let extensions: UInt8 = 1 << 7

    let rpIDHash: Data
    let flags: UInt8
    let signCount: UInt32
    let credential: (id: Data, key: InMemoryRelyingParty.PublicKey)?

    init(_ data: Data) throws(AuthError) {
        let bytes = Array(data)
        guard bytes.count >= 37 else { throw InMemoryRelyingParty.refusal("authenticator data is too short") }
        rpIDHash = Data(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = Data(bytes[37...])
        if flags & Self.attested != 0 {
            let head = Array(rest.prefix(18))
            guard head.count == 18 else { throw InMemoryRelyingParty.refusal("attested credential data is truncated") }
            let length = Int(head[16]) << 8 | Int(head[17])
            guard length > 0, length <= 1_023, rest.count >= 18 + length else {
                throw InMemoryRelyingParty.refusal("the credential id is malformed")
            }
            let id = Data(rest.dropFirst(18).prefix(length))
            let keyBytes = Data(rest.dropFirst(18 + length))
            let cose: CBORValue
            let keyLength: Int
            do {
                (cose, keyLength) = try CBORDecoder().decodePrefix(Array(keyBytes))
            } catch {
                throw InMemoryRelyingParty.refusal("the credential public key is not valid CBOR")
            }
            credential = (id, try InMemoryRelyingParty.PublicKey(cose: cose))
            rest = Data(keyBytes.dropFirst(keyLength))
        } else {
            credential = nil
        }
        if flags & Self.extensions != 0 {
            guard (try? CBORDecoder().decode(Array(rest)))?.mapEntries != nil else {
                throw InMemoryRelyingParty.refusal("the extensions are not a CBOR map")
            }
            rest = Data()
        }
        guard rest.isEmpty else { throw InMemoryRelyingParty.refusal("authenticator data has bytes left over") }
    }
}
