public import Foundation

/// A WebAuthn structure in its JSON form (WebAuthn Level 3's `…JSON` dictionaries, the
/// `toJSON()` of a credential): binary fields as unpadded base64url, the member names of the
/// specification. The server, the SDK and its test backend read and write these through one
/// type each, so the names and encodings are spelled once.
public protocol PasskeyJSON: Codable, Sendable, Equatable {
    /// What the value is called in a ``PasskeyJSONError``'s reason: `credential`, `options`,
    /// `clientDataJSON`.
    static var jsonName: String { get }
}

extension PasskeyJSON {
    /// Reads the value from parsed JSON (a verify request's `credential`, an options answer's
    /// `options`).
    ///
    /// - Throws: ``PasskeyJSONError`` naming the field that is missing, of the wrong kind or
    ///   not base64url.
    public init(json: JSONValue) throws(PasskeyJSONError) {
        let bytes: Data
        do {
            bytes = try JSONEncoder().encode(json)
        } catch {
            throw PasskeyJSONError(error, in: Self.jsonName)
        }
        try self.init(jsonData: bytes)
    }

    /// Reads the value from JSON text.
    ///
    /// - Throws: ``PasskeyJSONError`` naming the field that is missing, of the wrong kind or
    ///   not base64url, or saying the bytes are not JSON.
    public init(jsonData: Data) throws(PasskeyJSONError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: jsonData)
        } catch {
            throw PasskeyJSONError(error, in: Self.jsonName)
        }
    }

    /// The value as JSON text, members sorted, `/` unescaped (``WireCoding/makeEncoder()``).
    public var jsonData: Data {
        // Cannot fail: these values hold no floating-point number, the one kind of value
        // JSONEncoder refuses (NaN, infinities).
        (try? WireCoding.makeEncoder().encode(self)) ?? Data()
    }

    /// The value as parsed JSON, to put inside a request or answer.
    public var json: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: jsonData)) ?? .null
    }
}
