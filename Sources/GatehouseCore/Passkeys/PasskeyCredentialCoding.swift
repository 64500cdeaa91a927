import Foundation

/// The members around a credential's `response` (WebAuthn `RegistrationResponseJSON`,
/// `AuthenticationResponseJSON`), read and written the same way for both ceremonies: `id` and
/// `rawId` (the same base64url text), `type` (`public-key`), then the response object.
enum PasskeyCredentialCoding {
    enum Keys: String, CodingKey {
        case id, type, response
        case rawID = "rawId"
    }

    /// The credential id, after checking `type` and that `rawId`, when present, spells the
    /// same id. Binary fields of a credential are read in their canonical spelling only.
    static func decodeID(_ c: KeyedDecodingContainer<Keys>) throws -> Data {
        let type = try c.decode(String.self, forKey: .type)
        guard type == "public-key" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "must be public-key")
        }
        let id = try c.decode(String.self, forKey: .id)
        guard let bytes = Base64URLReading.canonical.bytes(id) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "is not base64url")
        }
        if let raw = try c.decodeIfPresent(String.self, forKey: .rawID), raw != id {
            throw DecodingError.dataCorruptedError(forKey: .rawID, in: c, debugDescription: "differs from id")
        }
        return bytes
    }

    /// Writes `id` and `rawId` (both the base64url of `id`) and `type`.
    static func encodeID(_ id: Data, _ c: inout KeyedEncodingContainer<Keys>) throws {
        try c.encodeBase64URL(id, forKey: .id)
        try c.encodeBase64URL(id, forKey: .rawID)
        try c.encode("public-key", forKey: .type)
    }
}
