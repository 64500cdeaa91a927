/// `POST /token?grant_type=pkce`: exchanges the `auth_code` that `/callback` or an e-mailed PKCE
/// link (`GET /verify`) put into the redirect's query (`?code=`) for a session, proving with the
/// verifier whose challenge started the flow.
public struct PKCEGrantRequest: Codable, Sendable, Equatable {
    /// The redirect's `code`.
    public var authCode: String
    /// The verifier whose challenge (`code_challenge`) started the flow.
    public var codeVerifier: String

    /// Creates the body of an exchange.
    public init(authCode: String, codeVerifier: String) {
        self.authCode = authCode
        self.codeVerifier = codeVerifier
    }

    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}
