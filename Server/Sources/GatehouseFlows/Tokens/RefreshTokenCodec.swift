import Crypto
import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// Refresh tokens that are never stored: `gh1_` + base64url(session id ‖ counter ‖ MAC), where
/// MAC = HMAC-SHA-256(server secret, session id ‖ salt ‖ counter). The database keeps the
/// counter of the one live token, so the current token can be recomputed (the lost-response
/// rule) and a presented token is checked without storing any token.
struct RefreshTokenCodec: Sendable {
    static let prefix = "gh1_"
    let secret: ServerSecret

    struct Parsed: Equatable {
        var sessionID: UUID
        var counter: Int64
        var mac: [UInt8]
    }

    func token(for session: SessionRecord, counter: Int64) -> String {
        let idBytes = session.id.bytes
        let counterBytes = withUnsafeBytes(of: counter.bigEndian, Array.init)
        let mac = self.mac(sessionID: idBytes, salt: session.salt, counter: counterBytes)
        return Self.prefix + Base64URL.encode(idBytes + counterBytes + mac)
    }

    func parse(_ token: String) -> Parsed? {
        guard token.hasPrefix(Self.prefix), token.count < 200,
            let bytes = Base64URL.decode(String(token.dropFirst(Self.prefix.count))), bytes.count == 16 + 8 + 32
        else { return nil }
        let id = UUID(bytes: Array(bytes[0..<16]))
        let counter = bytes[16..<24].reduce(Int64(0)) { ($0 << 8) | Int64($1) }
        return Parsed(sessionID: id, counter: counter, mac: Array(bytes[24...]))
    }

    /// Whether `parsed` was minted for `session` (constant-time comparison).
    func isAuthentic(_ parsed: Parsed, for session: SessionRecord) -> Bool {
        let expected = mac(
            sessionID: session.id.bytes,
            salt: session.salt,
            counter: withUnsafeBytes(of: parsed.counter.bigEndian, Array.init)
        )
        return ConstantTime.equal(expected, parsed.mac)
    }

    private func mac(sessionID: [UInt8], salt: String, counter: [UInt8]) -> [UInt8] {
        secret.macBytes(Array("refresh|".utf8) + sessionID + Array(salt.utf8) + counter)
    }
}
