import GatehouseCore
import HTTPTypes

/// Why a WebAuthn credential was refused. Each case answers 400 with a stable code; the
/// message says what was wrong, never anything secret.
enum WebAuthnFailure: Error, Sendable, Equatable {
    /// The credential cannot be read: bad base64url, JSON, CBOR or layout.
    case malformed(String)
    /// The credential reads but fails a check: origin, RP id, challenge, flags, signature.
    case rejected(String)

    var apiError: APIError {
        switch self {
        case .malformed(let detail):
            APIError(.badRequest, .webAuthnVerificationFailed, "Invalid credential response: \(detail).")
        case .rejected(let detail):
            APIError(.badRequest, .webAuthnVerificationFailed, "Credential verification failed: \(detail).")
        }
    }
}
