import GatehouseCore
/// An attestation object (WebAuthn §6.5): the format, its statement and the authenticator
/// data. The server accepts `none` (Apple and Google passkeys) and `packed` self attestation
/// (the credential signs for itself); attestation with certificates is refused, since the
/// server asks for none and verifies no certificate chains.
struct AttestationObject: Sendable {
    package let format: String
    let authenticatorData: AuthenticatorData
    /// The raw authenticator data, which a `packed` signature covers.
    let authenticatorDataBytes: [UInt8]
    package let statement: CBORValue

    package init(_ bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) throws(WebAuthnFailure) {
        let object: CBORValue
        do {
            object = try decoder.decode(bytes)
        } catch {
            throw .malformed("attestationObject is not valid CBOR (\(error))")
        }
        guard let entries = object.mapEntries, entries.count == 3, let format = object[text: "fmt"]?.text,
            let statement = object[text: "attStmt"], statement.mapEntries != nil,
            let authData = object[text: "authData"]?.bytes
        else { throw .malformed("attestationObject must be a map of fmt, attStmt and authData") }
        self.format = format
        self.statement = statement
        authenticatorDataBytes = authData
        authenticatorData = try AuthenticatorData(authData, decoder: decoder)
    }

    /// Checks the statement against the credential's own key.
    ///
    /// - Returns: The attestation type stored with the credential (`none` or `self`).
    package func verify(clientDataHash: [UInt8]) throws(WebAuthnFailure) -> String {
        guard let credential = authenticatorData.attestedCredential else {
            throw .malformed("the authenticator data holds no credential")
        }
        switch format {
        case "none":
            guard statement.mapEntries?.isEmpty == true else {
                throw .malformed("a none attestation must have an empty statement")
            }
            return "none"
        case "packed":
            guard statement[text: "x5c"] == nil, statement[text: "ecdaaKeyId"] == nil else {
                throw .rejected("attestation with certificates is not accepted; request attestation none")
            }
            guard let entries = statement.mapEntries, entries.count == 2, let alg = statement[text: "alg"]?.integer,
                let signature = statement[text: "sig"]?.bytes
            else { throw .malformed("a packed statement must hold alg and sig") }
            guard alg == credential.publicKey.algorithm else {
                throw .rejected("the packed statement's algorithm is not the credential's")
            }
            guard credential.publicKey.isValidSignature(signature, for: authenticatorDataBytes + clientDataHash)
            else { throw .rejected("the packed self-attestation signature is invalid") }
            return "self"
        default:
            throw .rejected("attestation format “\(format.prefix(32))” is not supported")
        }
    }
}
