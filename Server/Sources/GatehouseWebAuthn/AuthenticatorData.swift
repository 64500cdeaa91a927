import GatehouseCore
/// The authenticator data of a registration or an assertion (WebAuthn Level 3 §6.1): the RP
/// id hash, the flags, the signature counter and, at registration, the attested credential.
struct AuthenticatorData: Sendable {
    /// The flags byte (§6.1, table 1).
    struct Flags: OptionSet, Sendable {
        package let rawValue: UInt8

        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP: the user was present.
        static let userPresent = Flags(rawValue: 1 << 0)
        /// UV: the user was verified (biometrics or a PIN).
        static let userVerified = Flags(rawValue: 1 << 2)
        /// BE: the credential may be backed up (a synced passkey).
        package static let backupEligible = Flags(rawValue: 1 << 3)
        /// BS: the credential is backed up now.
        package static let backedUp = Flags(rawValue: 1 << 4)
        /// AT: attested credential data follows.
        static let attestedCredentialData = Flags(rawValue: 1 << 6)
        /// ED: extensions follow.
        static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// The credential an authenticator made, present at registration.
    struct AttestedCredential: Sendable {
        package let aaguid: [UInt8]
        package let credentialID: [UInt8]
        /// The COSE key exactly as encoded (stored, parsed again at each sign-in).
        let publicKeyBytes: [UInt8]
        package let publicKey: COSEKey
    }

    /// The longest credential id the specification allows (§5.8.3).
    static let maximumCredentialIDLength = 1_023

    let rpIDHash: [UInt8]
    package let flags: Flags
    package let signCount: UInt32
    let attestedCredential: AttestedCredential?

    /// Parses `bytes`; anything malformed or left over is an error.
    package init(_ bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) throws(WebAuthnFailure) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data is shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = Array(bytes[37...])
        if flags.contains(.attestedCredentialData) {
            guard rest.count >= 18 else { throw .malformed("attested credential data is truncated") }
            let aaguid = Array(rest[0..<16])
            let idLength = Int(rest[16]) << 8 | Int(rest[17])
            guard idLength > 0, idLength <= Self.maximumCredentialIDLength else {
                throw .malformed("the credential id must have 1 to 1023 bytes")
            }
            guard rest.count - 18 >= idLength else { throw .malformed("the credential id is truncated") }
            let credentialID = Array(rest[18..<(18 + idLength)])
            rest = Array(rest[(18 + idLength)...])
            let key: (value: CBORValue, length: Int)
            do {
                key = try decoder.decodePrefix(rest)
            } catch {
                throw .malformed("the credential public key is not valid CBOR (\(error))")
            }
            let keyBytes = Array(rest[0..<key.length])
            attestedCredential = AttestedCredential(
                aaguid: aaguid,
                credentialID: credentialID,
                publicKeyBytes: keyBytes,
                publicKey: try COSEKey(key.value)
            )
            rest = Array(rest[key.length...])
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            let extensions: CBORValue
            do {
                extensions = try decoder.decode(rest)
            } catch {
                throw .malformed("the extensions are not valid CBOR (\(error))")
            }
            guard extensions.mapEntries != nil else { throw .malformed("the extensions are not a map") }
            rest = []
        }
        guard rest.isEmpty else { throw .malformed("authenticator data has bytes left over") }
    }
}
