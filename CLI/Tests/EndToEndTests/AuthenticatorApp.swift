import Foundation
import Gatehouse

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// An authenticator app for the end-to-end tests: RFC 6238 (SHA-1, 6 digits, 30 s) over
/// swift-crypto's HMAC, from the base32 secret an enrolment shows.
struct AuthenticatorApp {
    let key: [UInt8]

    init(_ enrolment: TOTPEnrollment) {
        self.init(base32: enrolment.secret)
    }

    init(base32 secret: String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in secret.uppercased() {
            guard let value = alphabet.firstIndex(of: character) else { continue }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        key = bytes
    }

    /// The code the app shows at `date` (a later step with `steps`).
    func code(at date: Date, steps: Int = 0) -> String {
        let step = UInt64(Int64((date.timeIntervalSince1970 / 30).rounded(.down)) + Int64(steps))
        let message = (0..<8).map { UInt8((step >> (56 - 8 * UInt64($0))) & 0xFF) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let value =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
