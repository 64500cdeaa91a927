import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import JWTKit

/// The claims of a Gatehouse access token (GoTrue's set).
struct AccessClaims: JWTPayload, Equatable {
    var aud: String
    var exp: Int
    var iat: Int
    var nbf: Int?
    var iss: String
    var sub: String
    var email: String
    var phone: String
    var role: String
    var aal: AuthenticatorAssuranceLevel
    var amr: [AMREntry]
    var sessionID: String?
    var isAnonymous: Bool
    var appMetadata: [String: JSONValue]
    var userMetadata: [String: JSONValue]
    /// The token's id; admin tokens carry one, so that one can be revoked.
    var jti: String? = nil

    enum CodingKeys: String, CodingKey {
        case aud, exp, iat, nbf, iss, sub, email, phone, role, aal, amr, jti
        case sessionID = "session_id"
        case isAnonymous = "is_anonymous"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
    }

    init(
        aud: String,
        exp: Int,
        iat: Int,
        iss: String,
        sub: String,
        email: String,
        role: String,
        amr: [AMREntry],
        sessionID: String?,
        isAnonymous: Bool,
        appMetadata: [String: JSONValue],
        userMetadata: [String: JSONValue]
    ) {
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.iss = iss
        self.sub = sub
        self.email = email
        self.phone = ""
        self.role = role
        self.aal = .aal1
        self.amr = amr
        self.sessionID = sessionID
        self.isAnonymous = isAnonymous
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        aud = try c.decode(String.self, forKey: .aud)
        exp = try c.decode(Int.self, forKey: .exp)
        iat = try c.decodeIfPresent(Int.self, forKey: .iat) ?? 0
        nbf = try c.decodeIfPresent(Int.self, forKey: .nbf)
        iss = try c.decodeIfPresent(String.self, forKey: .iss) ?? ""
        sub = try c.decode(String.self, forKey: .sub)
        email = try c.decodeIfPresent(String.self, forKey: .email) ?? ""
        phone = try c.decodeIfPresent(String.self, forKey: .phone) ?? ""
        role = try c.decode(String.self, forKey: .role)
        aal = try c.decode(AuthenticatorAssuranceLevel.self, forKey: .aal)
        amr = try c.decodeIfPresent([AMREntry].self, forKey: .amr) ?? []
        sessionID = try c.decodeIfPresent(String.self, forKey: .sessionID)
        isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
        appMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .appMetadata) ?? [:]
        userMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata) ?? [:]
        jti = try c.decodeIfPresent(String.self, forKey: .jti)
    }

    /// Signature checks happen in jwt-kit; claim checks (with leeway and our clock) in ``TokenService``.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// The claims' JSON, written directly for ``AccessTokenSigner``: the value jwt-kit's encoder
    /// writes for them (absent optionals left out, text escaped as it escapes it), with the
    /// members in declaration order (the encoder's order changes from run to run).
    ///
    /// - Throws: When a metadata number cannot be written (infinite or NaN), as the encoder does.
    func json() throws -> [UInt8] {
        var json = JSONBytes(capacity: 512)
        json.beginObject()
        json.key("aud")
        json.string(aud)
        json.key("exp")
        json.integer(exp)
        json.key("iat")
        json.integer(iat)
        if let nbf {
            json.key("nbf")
            json.integer(nbf)
        }
        json.key("iss")
        json.string(iss)
        json.key("sub")
        json.string(sub)
        json.key("email")
        json.string(email)
        json.key("phone")
        json.string(phone)
        json.key("role")
        json.string(role)
        json.key("aal")
        json.string(aal.rawValue)
        json.key("amr")
        json.beginArray()
        for entry in amr {
            json.beginObject()
            json.key("method")
            json.string(entry.method.rawValue)
            json.key("timestamp")
            json.integer(entry.timestamp)
            if let provider = entry.provider {
                json.key("provider")
                json.string(provider.rawValue)
            }
            json.endObject()
        }
        json.endArray()
        if let sessionID {
            json.key("session_id")
            json.string(sessionID)
        }
        json.key("is_anonymous")
        json.bool(isAnonymous)
        json.key("app_metadata")
        try json.object(appMetadata)
        json.key("user_metadata")
        try json.object(userMetadata)
        if let jti {
            json.key("jti")
            json.string(jti)
        }
        json.endObject()
        return json.bytes
    }
}
