import Crypto
import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport

/// An authenticator app, written independently of the server's ``TOTPSecret``: RFC 4226's
/// dynamic truncation over swift-crypto's HMAC-SHA-1, checked against RFC 6238's test vectors
/// (`MFATOTPTests`) and, when python3 has it, PyPI's `pyotp`.
struct ReferenceTOTP {
    var key: [UInt8]

    /// The app that scanned `secret` (base32, as `POST /factors` answers it).
    init(base32 secret: String) {
        key = Self.decodeBase32(secret)
    }

    init(key: [UInt8]) {
        self.key = key
    }

    /// The code at `date` (or `steps` 30 s steps later), zero-padded.
    func code(at date: Date, steps: Int = 0, digits: Int = 6) -> String {
        let counter = UInt64(Int64((date.timeIntervalSince1970 / 30).rounded(.down)) + Int64(steps))
        var message = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { message[index] = UInt8((counter >> (56 - 8 * UInt64(index))) & 0xFF) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[19] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    static func decodeBase32(_ text: String) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.uppercased() where character != "=" {
            guard let value = alphabet.firstIndex(of: character) else { continue }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return bytes
    }
}

/// PyPI's `pyotp` (pinned in `scripts/ci-setup`), when python3 has it.
enum PyOTP {
    static var available: Bool { PythonModules.installed("pyotp") }

    /// pyotp's code of `secret` at unix time `at`.
    static func code(secret: String, at date: Date) async throws -> String {
        try await run("import pyotp; print(pyotp.TOTP('\(secret)').at(\(Int(date.timeIntervalSince1970))), end='')")
    }

    /// pyotp's reading of an `otpauth://` URI: secret, issuer, account name, digits, period.
    static func parse(uri: String) async throws -> String {
        try await run(
            "import pyotp; t = pyotp.parse_uri('\(uri)'); print(t.secret, t.issuer, t.name, t.digits, t.interval, end='')"
        )
    }

    private static func run(_ program: String) async throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program]
        let finished = try await process.runToEnd(timeout: .seconds(60))
        guard finished.status == 0 else { throw Failed() }
        return finished.output
    }

    struct Failed: Error {}
}
