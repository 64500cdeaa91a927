import Foundation
import GatehouseCore
import HTTPTypes

/// The account changes a password alone must not make for a user who has a verified factor: the
/// session must be at AAL2 (401 `insufficient_aal`, as GoTrue answers `PUT /user`).
enum SecondFactorRule {
    /// Throws unless `caller` may make a change that needs AAL2 (`applies` false: nothing to check).
    static func requireAAL2(_ caller: Caller, when applies: Bool, for action: String) throws {
        guard applies, caller.user.hasVerifiedFactor, !MFAAccess.isAAL2(caller) else { return }
        throw APIError(
            .unauthorized,
            .insufficientAAL,
            "AAL2 session is required to \(action): verify a code of your authenticator app first"
        )
    }
}
