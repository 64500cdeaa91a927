import Foundation
import GatehouseStorage

/// What proving an address does to the account that holds it (`security.md` OWN-1).
///
/// An unconfirmed account's password is not proven either: anyone could have signed up the
/// address. Only the code sent by the very sign-up that set the password (or its resend) proves
/// the password with the address; any other proof (a sign-in code, a provider, a recovery code)
/// drops the password and ends every session of the account.
enum AddressProof: Equatable, Sendable {
    /// The address was confirmed already, or there is no password to judge.
    case confirm
    /// The code of the sign-up that set the password: the password is proven too.
    case confirmWithPassword
    /// Any other proof of an unconfirmed address with a password: the password goes.
    case dropUnprovenPassword

    /// The decision for `user` proven by a code of `purpose` whose link hash is `linkHash`.
    static func decide(user: UserRecord, purpose: CodePurpose, linkHash: String?) -> AddressProof {
        guard user.emailConfirmedAt == nil, user.passwordHash != nil else { return .confirm }
        if purpose == .signup, let linkHash, linkHash == user.passwordCode { return .confirmWithPassword }
        return .dropUnprovenPassword
    }

    /// Confirms the address on `user` and drops the password when decided so.
    func apply(to user: inout UserRecord, now: Date) {
        user.emailConfirmedAt = user.emailConfirmedAt ?? now
        user.passwordCode = nil
        if self == .dropUnprovenPassword { user.passwordHash = nil }
    }
}
