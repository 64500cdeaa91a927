import Crypto
import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage

/// An authenticator app's shared secret and the codes it yields: RFC 6238 TOTP with SHA-1,
/// 6 digits and 30 s steps, accepted one step either side of the server's clock.
///
/// The code is RFC 4226's dynamic truncation of swift-crypto's `HMAC<Insecure.SHA1>`, keyed
/// with the secret's bytes, whatever they are: a secret enrolled here (25 random bytes, 200
/// bits) or one imported from Supabase (any length, any byte). HummingbirdOTP is not used: it
/// keys its HMAC with the UTF-8 of a `String`, which cannot carry bytes of 0x80 and above.
/// Apps get the bytes in base32 (RFC 4648, no padding).
struct TOTPSecret: Sendable, Equatable {
    static let step: TimeInterval = 30
    static let digits = 6
    /// 10^digits.
    private static let modulus: UInt32 = 1_000_000

    /// The key bytes.
    let bytes: [UInt8]

    /// A new random secret: 25 bytes (above RFC 4226's recommended 160 bits; 40 base32
    /// characters without padding).
    static func random() -> TOTPSecret {
        TOTPSecret(bytes: SecureRandom.bytes(25))
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The secret of a base32 text (as apps and Supabase's `mfa_factors.secret` hold it: case
    /// and `=` padding ignored); `nil` when it is not base32 or shorter than RFC 4226's 128 bits.
    init?(base32 text: String) {
        guard let bytes = Base32.decode(text), bytes.count >= 16 else { return nil }
        self.bytes = bytes
    }

    /// The secret in base32, as apps take it.
    var base32: String { Base32.encode(bytes) }

    /// The `otpauth://totp/…` URI for apps: label `issuer:account`, GoTrue's parameters
    /// (`compact`: only `secret` and `issuer`, the others being every app's defaults).
    func uri(issuer: String, account: String, compact: Bool = false) -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/\(issuer):\(account)"
        components.queryItems =
            compact
            ? [URLQueryItem(name: "secret", value: base32), URLQueryItem(name: "issuer", value: issuer)]
            : [
                URLQueryItem(name: "algorithm", value: "SHA1"),
                URLQueryItem(name: "digits", value: String(Self.digits)), URLQueryItem(name: "issuer", value: issuer),
                URLQueryItem(name: "period", value: String(Int(Self.step))),
                URLQueryItem(name: "secret", value: base32),
            ]
        return components.string ?? ""
    }

    /// The 30 s step `date` falls in.
    static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / step).rounded(.down))
    }

    /// The code of `step`, zero-padded to 6 digits: HOTP (RFC 4226 §5.3) of the step as an
    /// 8-byte big-endian counter.
    func code(step: Int64) -> String {
        let counter = UInt64(bitPattern: step)
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: bytes)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = mac[offset..<offset + 4].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) } & 0x7FFF_FFFF
        let digits = String(truncated % Self.modulus)
        return String(repeating: "0", count: Self.digits - digits.count) + digits
    }

    /// The step whose code `code` is, within one step of `now`'s; `nil` when none matches.
    /// Every candidate is compared, without early exit.
    func matchingStep(of code: String, at now: Date) -> Int64? {
        guard code.utf8.count == Self.digits, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let current = Self.step(at: now)
        var found: Int64?
        for step in [current - 1, current, current + 1] where ConstantTime.equal(self.code(step: step), code) {
            found = step
        }
        return found
    }
}
