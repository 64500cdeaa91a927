// Apple-only call sites in this file: CryptoKit's SHA256 (every Apple platform); elsewhere
// swift-crypto's Crypto module, which has the same API.
import Foundation
import Gatehouse

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A salted SHA-256 of a password. Good enough for a test double that never leaves memory;
/// a real server uses a slow password hash (Gatehouse's uses bcrypt).
struct SaltedHash: Equatable {
    var salt: [UInt8]
    var digest: [UInt8]

    init(password: String) {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.init(salt: salt, password: password)
    }

    private init(salt: [UInt8], password: String) {
        self.salt = salt
        self.digest = Array(SHA256.hash(data: salt + Array(password.utf8)))
    }

    func matches(_ password: String) -> Bool {
        let candidate = SaltedHash(salt: salt, password: password).digest
        // Constant-time comparison.
        return zip(candidate, digest).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 && candidate.count == digest.count
    }

    static func sha256Hex(_ text: String) -> String {
        SignInNonce(raw: text).sha256
    }
}
