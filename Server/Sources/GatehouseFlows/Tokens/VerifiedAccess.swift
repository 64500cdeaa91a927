import GatehouseStorage
package import JWTKit

/// The claims of an access token that a request's check reads: who, which session, which role,
/// and the validity window. Decoding only these (not the metadata an access token also carries)
/// keeps the per-request check close to the cost of its signature verification.
package struct VerifiedAccess: JWTPayload, Equatable {
    /// Absent only in a Supabase project key (``isSupabaseProjectKey``).
    var aud: String?
    var exp: Int
    var nbf: Int?
    var iss: String
    /// Empty when absent (a Supabase project key has none).
    var sub: String
    var role: String
    var sessionID: String?
    /// The token's id (admin tokens), checked against the revoked ones.
    var jti: String?

    enum CodingKeys: String, CodingKey {
        case aud, exp, nbf, iss, sub, role, jti
        case sessionID = "session_id"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        aud = try c.decodeIfPresent(String.self, forKey: .aud)
        exp = try c.decode(Int.self, forKey: .exp)
        nbf = try c.decodeIfPresent(Int.self, forKey: .nbf)
        iss = try c.decodeIfPresent(String.self, forKey: .iss) ?? ""
        sub = try c.decodeIfPresent(String.self, forKey: .sub) ?? ""
        role = try c.decode(String.self, forKey: .role)
        sessionID = try c.decodeIfPresent(String.self, forKey: .sessionID)
        jti = try c.decodeIfPresent(String.self, forKey: .jti)
    }

    /// The shape of the keys Supabase projects mint (`{"iss":"supabase","ref":…,"role":…}`):
    /// no subject, audience or session.
    var isSupabaseProjectKey: Bool {
        iss == "supabase" && aud == nil && sub.isEmpty && sessionID == nil
    }

    /// Signature checks happen in jwt-kit; claim checks (with leeway and our clock) in ``TokenService``.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
