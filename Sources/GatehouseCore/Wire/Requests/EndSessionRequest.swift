/// The optional body of `DELETE /user/sessions/{id}`: a reauthentication code (from
/// `GET /reauthenticate`) when the caller's last sign-in is not recent and the session is
/// another one.
public struct EndSessionRequest: Codable, Sendable, Equatable {
    /// The reauthentication code, when one is needed.
    public var nonce: String?

    /// Creates the body, with a reauthentication code or without one.
    public init(nonce: String? = nil) {
        self.nonce = nonce
    }
}
