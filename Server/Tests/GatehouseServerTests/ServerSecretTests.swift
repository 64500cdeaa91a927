import Crypto
import Foundation
import Testing

@testable import GatehouseFlows

/// The server secret's HMAC, keyed once and copied for each MAC (issue 35), against RFC 4231.
@Suite("Server secret")
struct ServerSecretTests {
    /// RFC 4231, test case 2: HMAC-SHA-256 with the key "Jefe".
    @Test func itsMACIsHMACSHA256AndEveryMACStartsFromTheKeyAlone() {
        let secret = ServerSecret(key: SymmetricKey(data: Data("Jefe".utf8)))
        let expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        #expect(secret.mac("what do ya want for nothing?") == expected)
        #expect(secret.mac("what do ya want for nothing?") == expected, "the keyed HMAC is copied, never advanced")
        let other = Array("another message".utf8)
        let reference = Array(HMAC<SHA256>.authenticationCode(for: other, using: SymmetricKey(data: Data("Jefe".utf8))))
        #expect(secret.macBytes(other) == reference)
        #expect(secret.mac("what do ya want for nothing?") == expected)
    }
}
