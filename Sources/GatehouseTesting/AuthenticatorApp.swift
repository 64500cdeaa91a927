// Apple-only call sites in this file: CryptoKit's HMAC and Insecure.SHA1 (every Apple
// platform); elsewhere swift-crypto's Crypto module, which has the same API.
public import Foundation
import GatehouseCore

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// An authenticator app for tests: the codes (RFC 6238: HMAC-SHA-1, 6 digits, 30 s steps) of
/// the secret an enrolment shows, against any backend.
///
/// ```swift
/// let enrolment = try await auth.mfa.enrollTOTP(friendlyName: "phone")
/// let app = AuthenticatorApp(base32: enrolment.secret)
/// try await auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: app.code(at: Date()))
/// ```
public struct AuthenticatorApp: Sendable, Hashable {
    /// The shared key.
    public let key: [UInt8]

    /// The app that was given `key`.
    public init(key: [UInt8]) {
        self.key = key
    }

    /// The app that scanned a base32 secret (spaces, padding and other characters are skipped,
    /// as an app skips what a person types between the groups).
    public init(base32 secret: String) {
        let letters = secret.uppercased().unicodeScalars.filter { ("A"..."Z").contains($0) || ("2"..."7").contains($0) }
        key = Base32.decode(String(String.UnicodeScalarView(letters))) ?? []
    }

    /// The key in base32, as an enrolment shows it.
    public var base32: String { Base32.encode(key) }

    /// The 30 s step `date` falls in.
    public static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / 30).rounded(.down)) }

    /// The code the app shows at `date`, or `steps` steps later (earlier when negative).
    public func code(at date: Date, steps: Int = 0) -> String {
        code(step: Self.step(at: date) + Int64(steps))
    }

    /// The code of one 30 s step: RFC 4226's truncation of HMAC-SHA-1 of the big-endian step.
    public func code(step: Int64) -> String {
        let counter = UInt64(bitPattern: step)
        let message = (0..<8).map { UInt8((counter >> (56 - 8 * UInt64($0))) & 0xFF) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let value =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
