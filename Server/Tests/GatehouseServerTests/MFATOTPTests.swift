import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Testing

@testable import GatehouseFlows
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
            #expect(
                try await PyOTP.code(secret: secret.base32, at: date) == secret.code(step: TOTPSecret.step(at: date))
            )
        }
        // A secret as Supabase stores it, bytes 0x80 and above.
        let imported = try #require(TOTPSecret(base32: "7777777777777777ZYXWVUTSRQPONMLK"))
        #expect(try await PyOTP.code(secret: imported.base32, at: now) == imported.code(step: TOTPSecret.step(at: now)))
        let uri = secret.uri(issuer: "auth.example.com", account: "ada+tag@example.com")
        #expect(try await PyOTP.parse(uri: uri) == "\(secret.base32) auth.example.com ada+tag@example.com 6 30")
    }

    @Test func keysWithBytesOf0x80AndAboveGiveTheTestAppsCodes() {
        // An imported Supabase secret is any 20 bytes; a key taken as a String's UTF-8 would
        // turn each of these into two bytes and yield other codes.
        let key: [UInt8] = (0..<20).map { UInt8(0x80 + $0 * 6) } + [0xFF, 0x00]
        let secret = TOTPSecret(bytes: key)
        let app = ReferenceTOTP(key: key)
        for time in [59, 1_111_111_109, 1_800_000_000, 2_000_000_000] {
            let date = Date(timeIntervalSince1970: Double(time))
            #expect(secret.code(step: TOTPSecret.step(at: date)) == app.code(at: date), "t=\(time)")
        }
        #expect(TOTPSecret(base32: secret.base32) == secret)
        #expect(TOTPSecret(base32: secret.base32.lowercased() + "==") == secret)
        #expect(TOTPSecret(base32: "MZXW6YTBOI") == nil, "shorter than 128 bits")
    }

    /// Both stored forms open to the key they sealed: the one factors enrolled before this
    /// version have (the key's text, bytes below 0x80, under `mfa-factor:<id>`), which must keep
    /// working, and the one of any bytes.
    @Test func sealedSecretsOpenInTheOldAndTheNewForm() throws {
        let vault = SigningKeyVault(secret: .ephemeral())
        let sealing = FactorSecretSealing(vault: vault)
        let id = UUID()
        let now = Date()
        var factor = FactorRecord(
            id: id,
            userID: UUID(),
            friendlyName: "",
            sealedSecret: try vault.seal("12345678901234567890", kid: "mfa-factor:\(id.key)"),
            createdAt: now,
            updatedAt: now
        )
        let legacy = try sealing.open(factor)
        #expect(legacy.bytes == Self.rfcKey)
        for (time, code) in Self.vectors {
            #expect(
                legacy.code(step: TOTPSecret.step(at: Date(timeIntervalSince1970: Double(time))))
                    == String(code.suffix(6))
            )
        }

        let any = TOTPSecret(bytes: [0xFF, 0x80, 0x00, 0x7F] + Array(repeating: 0xC3, count: 16))
        factor.sealedSecret = try sealing.seal(any, factorID: id)
        #expect(try sealing.open(factor) == any)
        // Either form moved to another factor opens to nothing.
        var moved = factor
        moved.id = UUID()
        #expect(throws: APIError.self) { try sealing.open(moved) }
        moved.sealedSecret = try vault.seal("12345678901234567890", kid: "mfa-factor:\(id.key)")
        #expect(throws: APIError.self) { try sealing.open(moved) }
    }

    @Test func base32DecodesWhatItEncodesAndNothingElse() {
        let cases = [
            "f": "MY", "fo": "MZXQ", "foo": "MZXW6", "foob": "MZXW6YQ", "fooba": "MZXW6YTB", "foobar": "MZXW6YTBOI",
        ]
        for (plain, encoded) in cases {
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.decode(encoded.lowercased()) == Array(plain.utf8))
        }
        #expect(Base32.decode("MZXW6===") == Array("foo".utf8))
        for bad in ["MZ XW6", "MZXW1", "MZ=XW6", "MZXW7", "MZXW6YTBO!"] { #expect(Base32.decode(bad) == nil, "\(bad)") }
    }

    @Test func base32MatchesRFC4648() {
        let cases = [
            "": "", "f": "MY", "fo": "MZXQ", "foo": "MZXW6", "foob": "MZXW6YQ", "fooba": "MZXW6YTB",
            "foobar": "MZXW6YTBOI",
        ]
        for (plain, encoded) in cases { #expect(Base32.encode(Array(plain.utf8)) == encoded) }
    }
}
