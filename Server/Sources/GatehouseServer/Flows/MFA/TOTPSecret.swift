import Foundation
import HummingbirdOTP

/// An authenticator app's shared secret and the codes it yields: SHA-1, 6 digits, 30 s steps
/// (RFC 6238, through HummingbirdOTP), accepted one step either side of the server's clock.
///
/// HummingbirdOTP keys the HMAC with the UTF-8 bytes of a string, so the secret is 25 random
/// bytes of 7 bits each (175 bits, above RFC 4226's 160; every byte below 0x80 is its own UTF-8
/// encoding); apps get those same bytes in base32 (40 characters, no padding).
struct TOTPSecret: Sendable {
    static let step: TimeInterval = 30
    static let digits = 6

    /// The key bytes, each below 0x80.
    let bytes: [UInt8]

    /// A new random secret.
    static func random() -> TOTPSecret {
        TOTPSecret(bytes: SecureRandom.bytes(25).map { $0 & 0x7F })
    }

    /// The secret of its stored text (the key bytes as a string); `nil` for anything else.
    init?(text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.bytes = bytes
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The key as the string HummingbirdOTP takes (and the database stores, sealed).
    var text: String { String(decoding: bytes, as: UTF8.self) }

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

    /// The code of `step`, zero-padded to 6 digits.
    func code(step: Int64) -> String {
        let value = TOTP(secret: text, length: Self.digits).compute(
            date: Date(timeIntervalSince1970: Double(step) * Self.step)
        )
        let digits = String(value)
        return String(repeating: "0", count: max(0, Self.digits - digits.count)) + digits
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
