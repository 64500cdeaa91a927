public import Foundation

/// A credential named in options (WebAuthn `PublicKeyCredentialDescriptorJSON`): one of the
/// account's passkeys in `excludeCredentials`, or one that may answer in `allowCredentials`.
public struct PasskeyCredentialDescriptor: Codable, Sendable, Equatable {
    /// `public-key`, the one credential type of WebAuthn.
    public var type: String
    /// The credential's id (base64url in JSON).
    public var id: Data
    /// How the authenticator holding it can be reached (`internal`, `hybrid`, `usb`, …), when
    /// known.
    public var transports: [String]?

    /// The descriptor of the credential `id`.
    public init(id: Data, transports: [String]? = nil, type: String = "public-key") {
        self.type = type
        self.id = id
        self.transports = transports
    }

    enum CodingKeys: String, CodingKey {
        case type, id, transports
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        id = try c.decodeBase64URL(forKey: .id, .padded)
        transports = try c.decodeIfPresent([String].self, forKey: .transports)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeBase64URL(id, forKey: .id)
        try c.encodeIfPresent(transports, forKey: .transports)
    }
}
