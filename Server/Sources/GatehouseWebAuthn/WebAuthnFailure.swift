/// Why a WebAuthn credential was refused. Each case answers 400 with a stable code; the
/// message says what was wrong, never anything secret.
package enum WebAuthnFailure: Error, Sendable, Equatable {
    /// The credential cannot be read: bad base64url, JSON, CBOR or layout.
    case malformed(String)
    /// The credential reads but fails a check: origin, RP id, challenge, flags, signature.
    case rejected(String)
}
