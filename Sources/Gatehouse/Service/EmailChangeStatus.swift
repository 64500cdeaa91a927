/// Where an e-mail change stands, after ``AuthService/updateUser(email:nonce:)`` or
/// ``AuthService/confirmEmailChange(email:code:)``.
///
/// A permanent user with a confirmed address changes it as GoTrue's secure e-mail change does:
/// a code goes to the new address and one to the current address, and the change completes
/// when both are entered. A guest, or a user whose current address was never confirmed,
/// confirms the new address only.
public enum EmailChangeStatus: Sendable, Equatable {
    /// Codes went to the new and the current address; both are needed.
    case codesSentToBothAddresses(newEmail: String, currentEmail: String)
    /// A code went to the new address only; it alone completes the change.
    case codeSentToNewAddress(newEmail: String)
    /// One address is confirmed; the code sent to the other address is still needed.
    case otherAddressPending
    /// The change is complete: the user now has the new address.
    case completed(User)
}
