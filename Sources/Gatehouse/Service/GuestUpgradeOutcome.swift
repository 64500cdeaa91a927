/// What happened when a guest tried to become a permanent user.
///
/// A guest's data is keyed by the guest's id. When the upgrade keeps that id there is nothing
/// to move; when the credential belongs to an existing account, the app decides whether to
/// merge the guest's data into it.
public enum GuestUpgradeOutcome: Sendable, Equatable {
    /// The guest is now a permanent user with the same id.
    case upgradedInPlace(User)
    /// A code was sent to the new address only (a guest has no current address to ask); the
    /// user stays a guest, without the address, until it is entered with
    /// ``AuthService/confirmEmailChange(email:code:)``, which keeps the guest's id.
    case pendingVerification(email: String)
    /// The credential belongs to another, existing account, which is now signed in; the
    /// guest's id is given so the app can move its data.
    case signedIntoExistingAccount(User, previousGuestID: String)
    /// The e-mail address belongs to an existing account; the guest is still signed in. Sign
    /// in to that account (its password is needed) to continue, then move the guest's data.
    case emailBelongsToExistingAccount(email: String, previousGuestID: String)
}
