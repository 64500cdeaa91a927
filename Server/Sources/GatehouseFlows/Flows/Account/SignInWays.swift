import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The rule that unlinking an identity and removing a passkey share: an account keeps at least
/// one way to sign in: its e-mail identity (address and password or e-mailed codes), a provider
/// identity, or a passkey.
enum SignInWays {
    /// How many ways `user` has to sign in, given its `passkeys` count.
    static func count(_ user: UserRecord, passkeys: Int) -> Int {
        user.identities.count + (user.hasEmailIdentity ? 1 : 0) + passkeys
    }

    /// Throws 422 `single_identity_not_deletable` unless `user` keeps a way to sign in after
    /// losing one of its `count` ways; `what` names the way being removed.
    static func requireAnother(_ user: UserRecord, passkeys: Int, removing what: String) throws {
        guard count(user, passkeys: passkeys) > 1 else {
            throw APIError(
                .unprocessableContent,
                .singleIdentityNotDeletable,
                "This \(what) is the account's only way to sign in; add another before removing it."
            )
        }
    }
}
