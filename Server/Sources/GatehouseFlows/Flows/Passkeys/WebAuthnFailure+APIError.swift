import GatehouseCore
import GatehouseServerSupport
import GatehouseWebAuthn
import HTTPTypes

extension WebAuthnFailure {
    /// The answer to a refused credential: 400 `webauthn_verification_failed`, with the reason.
    var apiError: APIError {
        switch self {
        case .malformed(let detail):
            APIError(.badRequest, .webAuthnVerificationFailed, "Invalid credential response: \(detail).")
        case .rejected(let detail):
            APIError(.badRequest, .webAuthnVerificationFailed, "Credential verification failed: \(detail).")
        }
    }
}
