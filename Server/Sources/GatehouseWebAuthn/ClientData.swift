import Foundation

/// The client data a browser or the platform signs over (WebAuthn §5.8.1), read strictly
/// enough for the checks of §7.1 and §7.2.
struct ClientData: Sendable {
    /// `webauthn.create` or `webauthn.get`.
    package let type: String
    /// The challenge, as the client saw it (base64url).
    package let challenge: String
    package let origin: String
    let crossOrigin: Bool

    /// The most bytes client data may have (real ones are a few hundred).
    package static let maximumBytes = 4_096

    package init(_ bytes: [UInt8]) throws(WebAuthnFailure) {
        guard bytes.count <= Self.maximumBytes else { throw .malformed("clientDataJSON is too large") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .malformed("clientDataJSON is not a JSON object")
        }
        guard let type = object["type"] as? String, let challenge = object["challenge"] as? String,
            let origin = object["origin"] as? String
        else { throw .malformed("clientDataJSON lacks type, challenge or origin") }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        if let crossOrigin = object["crossOrigin"] {
            guard let flag = crossOrigin as? Bool else {
                throw .malformed("clientDataJSON's crossOrigin is not a boolean")
            }
            self.crossOrigin = flag
        } else {
            self.crossOrigin = false
        }
    }
}
