public import Foundation

/// The client data an authenticator signs over (WebAuthn `CollectedClientData`, §5.8.1): the
/// bytes of a credential's `clientDataJSON`, which the relying party reads to check the
/// ceremony, the challenge and the origin (§7.1, §7.2).
///
/// ```json
/// {"challenge":"…","crossOrigin":false,"origin":"https://example.com","type":"webauthn.get"}
/// ```
public struct PasskeyClientData: PasskeyJSON {
    public static let jsonName = "clientDataJSON"

    /// ``type`` of a registration.
    public static let creation = "webauthn.create"
    /// ``type`` of a sign-in.
    public static let assertion = "webauthn.get"

    /// The ceremony: ``creation`` or ``assertion``.
    public var type: String
    /// The challenge, as the client received it.
    public var challenge: Data
    /// The origin of the page or app that ran the ceremony (`https://example.com`).
    public var origin: String
    /// Whether it ran in a frame of another origin; `false` when absent.
    public var crossOrigin: Bool

    /// Client data for `type` answering `challenge` from `origin`.
    public init(type: String, challenge: Data, origin: String, crossOrigin: Bool = false) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
    }

    enum CodingKeys: String, CodingKey {
        case type, challenge, origin, crossOrigin
    }

    /// Reads the client data; `crossOrigin`, when present, must be a boolean (not `null`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        challenge = try c.decodeBase64URL(forKey: .challenge, .canonical)
        origin = try c.decode(String.self, forKey: .origin)
        if c.contains(.crossOrigin), try c.decodeNil(forKey: .crossOrigin) {
            throw DecodingError.dataCorruptedError(forKey: .crossOrigin, in: c, debugDescription: "must be a boolean")
        }
        crossOrigin = try c.decodeIfPresent(Bool.self, forKey: .crossOrigin) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeBase64URL(challenge, forKey: .challenge)
        try c.encode(origin, forKey: .origin)
        try c.encode(crossOrigin, forKey: .crossOrigin)
    }
}
