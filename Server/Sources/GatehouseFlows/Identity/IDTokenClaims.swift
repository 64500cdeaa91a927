import Foundation
import GatehouseCore
import GatehouseStorage
import JWTKit

/// The claims of an ID token (Apple's, Google's, any OpenID Connect provider's) that the server reads. Every check happens in
/// ``IDTokenVerifier`` (with a clear message per failure), so `verify(using:)` does nothing.
struct IDTokenClaims: JWTPayload, Equatable {
    var issuer: String?
    var subject: String?
    var audience: AudienceClaim?
    var expires: Double?
    var notBefore: Double?
    var issuedAt: Double?
    var nonce: String?
    var email: String?
    /// A boolean or the strings "true"/"false" (Apple sends strings).
    var emailVerified: BoolClaim?
    var isPrivateEmail: BoolClaim?
    var authorizedPresenter: String?
    var hostedDomain: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var preferredUsername: String?
    var picture: String?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case expires = "exp"
        case notBefore = "nbf"
        case issuedAt = "iat"
        case nonce, email, name
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case authorizedPresenter = "azp"
        case hostedDomain = "hd"
        case givenName = "given_name"
        case familyName = "family_name"
        case preferredUsername = "preferred_username"
        case picture
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// What the identity keeps of the token (`identity_data` on the wire).
    var identityData: [String: JSONValue] {
        var data: [String: JSONValue] = [:]
        if let subject { data["sub"] = .string(subject) }
        if let issuer { data["iss"] = .string(issuer) }
        if let email { data["email"] = .string(email) }
        if let emailVerified { data["email_verified"] = .bool(emailVerified.value) }
        if let isPrivateEmail { data["is_private_email"] = .bool(isPrivateEmail.value) }
        if let name { data["name"] = .string(name) }
        if let hostedDomain { data["hd"] = .string(hostedDomain) }
        if let givenName { data["given_name"] = .string(givenName) }
        if let familyName { data["family_name"] = .string(familyName) }
        if let preferredUsername { data["preferred_username"] = .string(preferredUsername) }
        if let picture { data["picture"] = .string(picture) }
        return data
    }
}
