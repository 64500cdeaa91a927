/// The optional body of a sensitive action whose other input is in the path or the query
/// (`DELETE /user`, `DELETE /factors/{id}`, `DELETE /passkeys/{id}`, `POST /logout`): a
/// reauthentication code from `GET /reauthenticate`, sent when the caller's last sign-in is more
/// than 10 minutes old (the API document's `ReauthenticationProof`).
public struct ReauthenticationProofRequest: Codable, Sendable, Equatable {
    /// The code `GET /reauthenticate` e-mailed; `nil` when the last sign-in is recent enough.
    public var nonce: String?

    /// A proof carrying `nonce`, or none.
    public init(nonce: String? = nil) {
        self.nonce = nonce
    }
}
