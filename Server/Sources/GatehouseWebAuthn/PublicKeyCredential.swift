package import GatehouseCore

/// A `PublicKeyCredential` as JSON (WebAuthn §5.1, `toJSON()`), the `credential` of a verify
/// request: binary fields are base64url. Read by hand so that any malformed credential is a
/// ``WebAuthnFailure`` with its reason.
package struct PublicKeyCredential: Sendable {
    package let rawID: [UInt8]
    package let clientDataJSON: [UInt8]
    /// Registration: the attestation object.
    let attestationObject: [UInt8]?
    /// Registration: the transports the authenticator reports (`internal`, `hybrid`, …).
    package let transports: [String]
    /// Assertion: the authenticator data, signature and user handle.
    let authenticatorData: [UInt8]?
    package let signature: [UInt8]?
    package let userHandle: [UInt8]?

    /// The longest base64url field read (an attestation object with a 4096-bit RSA key is far below).
    static let maximumFieldLength = 43_000

    package init(_ json: JSONValue?) throws(WebAuthnFailure) {
        guard let object = json?.objectValue else { throw .malformed("credential must be an object") }
        guard object["type"]?.stringValue == "public-key" else {
            throw .malformed("credential type must be public-key")
        }
        guard let id = object["id"]?.stringValue, let rawID = Self.decode(id), !rawID.isEmpty,
            rawID.count <= AuthenticatorData.maximumCredentialIDLength
        else { throw .malformed("credential id must be base64url of 1 to 1023 bytes") }
        if let raw = object["rawId"]?.stringValue, raw != id { throw .malformed("rawId differs from id") }
        guard let response = object["response"]?.objectValue else { throw .malformed("credential lacks its response") }
        func field(_ name: String) throws(WebAuthnFailure) -> [UInt8]? {
            guard let value = response[name], value != .null else { return nil }
            guard let text = value.stringValue, let bytes = Self.decode(text) else {
                throw .malformed("response.\(name) is not base64url")
            }
            return bytes
        }
        guard let clientData = try field("clientDataJSON") else {
            throw .malformed("response.clientDataJSON is missing")
        }
        self.rawID = rawID
        clientDataJSON = clientData
        attestationObject = try field("attestationObject")
        authenticatorData = try field("authenticatorData")
        signature = try field("signature")
        userHandle = try field("userHandle")
        if case .array(let list) = response["transports"] {
            transports = list.compactMap(\.stringValue).filter { $0.count <= 32 }.prefix(8).map { $0 }
        } else {
            transports = []
        }
    }

    private static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= maximumFieldLength else { return nil }
        return Base64URL.decode(text)
    }
}
