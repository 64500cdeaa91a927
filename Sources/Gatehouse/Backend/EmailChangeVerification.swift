/// What verifying one code of an e-mail change gives (`POST /verify type=email_change`).
///
/// A secure e-mail change sends a code to the new address and one to the current address;
/// the change completes when both are entered, in either order.
public enum EmailChangeVerification: Sendable, Equatable {
    /// The change is complete; the user has the new address and this session.
    case completed(Session)
    /// This address is confirmed; the code sent to the other address is still needed.
    case otherAddressPending
}
