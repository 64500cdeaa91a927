import Foundation
import Testing

@testable import GatehouseServer

/// The server's codes against RFC 6238's SHA-1 test vectors and an independent implementation.
@Suite("TOTP codes")
struct MFATOTPTests {
    /// RFC 6238 appendix B, SHA-1, key "12345678901234567890": (unix time, 8-digit code).
    static let vectors: [(Int, String)] = [
        (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ]
    static let rfcKey = Array("12345678901234567890".utf8)

    @Test func theTestAppMatchesRFC6238() {
        let app = ReferenceTOTP(key: Self.rfcKey)
        for (time, code) in Self.vectors {
            #expect(app.code(at: Date(timeIntervalSince1970: Double(time)), digits: 8) == code, "t=\(time)")
        }
    }

    @Test func theServerMatchesRFC6238InItsSixDigits() {
        let secret = TOTPSecret(bytes: Self.rfcKey)
        for (time, code) in Self.vectors {
            let step = TOTPSecret.step(at: Date(timeIntervalSince1970: Double(time)))
            #expect(secret.code(step: step) == String(code.suffix(6)), "t=\(time)")
        }
    }

    @Test func randomSecretsAgreeWithTheTestAppAndAreOneStepTolerant() {
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        for _ in 0..<50 {
            let secret = TOTPSecret.random()
            #expect(secret.bytes.count == 25 && secret.base32.count == 40)
            let app = ReferenceTOTP(base32: secret.base32)
            #expect(app.key == secret.bytes)
            let step = TOTPSecret.step(at: now)
            #expect(secret.matchingStep(of: app.code(at: now), at: now) == step)
            #expect(secret.matchingStep(of: app.code(at: now, steps: -1), at: now) == step - 1)
            #expect(secret.matchingStep(of: app.code(at: now, steps: 1), at: now) == step + 1)
            let far = app.code(at: now, steps: 2)
            if ![-1, 0, 1].contains(where: { app.code(at: now, steps: $0) == far }) {
                #expect(secret.matchingStep(of: far, at: now) == nil)
            }
        }
    }

    @Test func malformedCodesMatchNothing() {
        let secret = TOTPSecret.random()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let code = secret.code(step: TOTPSecret.step(at: now))
        for bad in ["", "12345", "1234567", " \(code.dropFirst())", "\(code.dropLast())a", "１２３４５６", code + "\n"] {
            #expect(secret.matchingStep(of: bad, at: now) == nil, "\(bad)")
        }
    }

    @Test(.enabled(if: PyOTP.available || ProcessInfo.processInfo.environment["CI"] != nil, "needs python3 with pyotp"))
    func pyotpAgreesWithTheServer() async throws {
        let secret = TOTPSecret.random()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for offset in [0, 29, 30, 12_345] {
            let date = now.addingTimeInterval(Double(offset))
            #expect(try await PyOTP.code(secret: secret.base32, at: date) == secret.code(step: TOTPSecret.step(at: date)))
        }
        let uri = secret.uri(issuer: "auth.example.com", account: "ada+tag@example.com")
        #expect(try await PyOTP.parse(uri: uri) == "\(secret.base32) auth.example.com ada+tag@example.com 6 30")
    }

    @Test func base32MatchesRFC4648() {
        let cases = [
            "": "", "f": "MY", "fo": "MZXQ", "foo": "MZXW6", "foob": "MZXW6YQ", "fooba": "MZXW6YTB",
            "foobar": "MZXW6YTBOI",
        ]
        for (plain, encoded) in cases { #expect(Base32.encode(Array(plain.utf8)) == encoded) }
    }
}
