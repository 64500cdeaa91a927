import Foundation
import GatehouseCore

extension PasskeyClientData {
    /// The most bytes client data may have (real ones are a few hundred).
    static let maximumBytes = 4_096

    /// The client data a browser or the platform signed over (WebAuthn §5.8.1), read strictly
    /// enough for the checks of §7.1 and §7.2: ``PasskeyClientData``'s shape, at most
    /// ``maximumBytes``.
    init(signed bytes: [UInt8]) throws(WebAuthnFailure) {
        guard bytes.count <= Self.maximumBytes else { throw .malformed("clientDataJSON is too large") }
        do {
            try self.init(jsonData: Data(bytes))
        } catch {
            throw .malformed(error.reason)
        }
    }
}
