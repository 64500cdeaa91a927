import Foundation

/// How a WebAuthn JSON value spells bytes: base64url without padding. Which texts are read
/// depends on who wrote them.
enum Base64URLReading {
    /// Only the one canonical unpadded spelling (``Base64URL/decode(_:)``): what a relying
    /// party reads from an authenticator (credentials, client data).
    case canonical
    /// With or without `=` padding (``Base64URL/data(_:)``): what a client reads from a server
    /// (options), as some servers pad.
    case padded

    func bytes(_ text: String) -> Data? {
        switch self {
        case .canonical: Base64URL.decode(text).map { Data($0) }
        case .padded: Base64URL.data(text)
        }
    }
}

extension KeyedDecodingContainer {
    /// The bytes of the base64url text at `key`.
    ///
    /// - Throws: `DecodingError.keyNotFound` when it is missing, `typeMismatch` when it is not a
    ///   string, `dataCorrupted` when it is `null` ("must not be null") or not base64url as
    ///   `reading` accepts it ("is not base64url").
    func decodeBase64URL(forKey key: Key, _ reading: Base64URLReading) throws -> Data {
        if contains(key), try decodeNil(forKey: key) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must not be null")
        }
        let text = try decode(String.self, forKey: key)
        guard let bytes = reading.bytes(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "is not base64url")
        }
        return bytes
    }

    /// The bytes of the base64url text at `key`; `nil` when it is absent or `null`.
    func decodeBase64URLIfPresent(forKey key: Key, _ reading: Base64URLReading) throws -> Data? {
        guard try contains(key) && !decodeNil(forKey: key) else { return nil }
        return try decodeBase64URL(forKey: key, reading)
    }
}

extension KeyedEncodingContainer {
    /// Writes `bytes` as unpadded base64url at `key`.
    mutating func encodeBase64URL(_ bytes: Data, forKey key: Key) throws {
        try encode(Base64URL.string(bytes), forKey: key)
    }
}
