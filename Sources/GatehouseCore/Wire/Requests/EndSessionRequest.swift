/// The optional body of `DELETE /user/sessions/{id}`: a reauthentication code (from
/// `GET /reauthenticate`) when the caller's last sign-in is not recent and the session is
/// another one.
public struct EndSessionRequest: Codable, Sendable, Equatable {
    public var nonce: String?

    public init(nonce: String? = nil) {
        self.nonce = nonce
    }
}
