package import Foundation
import GatehouseCore
package import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The rules every factor route shares: who may use them, and the answers when a factor is
/// not the caller's.
package enum MFAAccess {
    /// Guests cannot have factors (GoTrue: 403 `no_authorization`).
    static func requirePermanentUser(_ caller: Caller) throws {
        if caller.user.isAnonymous {
            throw APIError(.forbidden, .noAuthorization, "Guest accounts cannot use two-factor sign-in; sign up first")
        }
    }

    /// Whether the caller's session is at AAL2.
    static func isAAL2(_ caller: Caller) -> Bool { caller.session.aal == .aal2 }

    package static let factorNotFound = APIError(.notFound, .mfaFactorNotFound, "Factor not found")

    /// The id of a path parameter; anything but a UUID is not found.
    package static func id(_ text: String?) throws -> UUID {
        guard let id = text.flatMap(UUID.init(uuidString:)) else { throw factorNotFound }
        return id
    }
}
