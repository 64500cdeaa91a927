import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import HummingbirdBcrypt
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server import --from supabase … --factors mfa_factors.csv` (issue 38): verified
/// TOTP factors arrive with their secrets sealed, and the imported user passes MFA with the
/// authenticator app it already had; unverified and other factors are left out with a reason.
@Suite("Import: Supabase TOTP factors")
struct ImportSupabaseFactorTests {
    static let user = "3b7a1c2d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    static let verified = "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9"
    static let unverified = "0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9"
    static let phone = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
    static let encrypted = "5c4b3a29-1807-46f5-a4e3-d2c1b0a9f8e7"
    /// Twenty bytes as GoTrue writes them (base32, no padding), most of them 0x80 and above:
    /// `7777…` is 0xFF bytes, which a key taken as a `String` cannot carry.
    static let secret = "7777777777777777ZYXWVUTSRQPONMLK"

    static func users(hash: String) -> String {
        """
        [{"instance_id": "00000000-0000-0000-0000-000000000000", "id": "\(user)", "aud": "authenticated",
          "role": "authenticated", "email": "grace@example.com", "encrypted_password": "\(hash)",
          "email_confirmed_at": "2024-01-15T10:30:00+00:00", "raw_app_meta_data": {"provider": "email", "providers": ["email"]},
          "raw_user_meta_data": {}, "created_at": "2024-01-15T10:29:00+00:00", "updated_at": "2024-03-01T08:00:00+00:00",
          "is_anonymous": false, "deleted_at": null}]
        """
    }

    /// `\copy auth.mfa_factors TO 'mfa_factors.csv' WITH CSV HEADER` (GoTrue's columns, empty
    /// `phone` and `last_challenged_at` being NULL).
    static let factors = """
        id,user_id,friendly_name,factor_type,status,created_at,updated_at,secret,phone,last_challenged_at
        \(verified),\(user),Grace's phone,totp,verified,2024-02-01 09:00:00.123456+00,2024-02-01 09:01:00+00,\(secret),,2024-03-01 08:00:05+00
        \(unverified),\(user),tablet,totp,unverified,2024-02-02 09:00:00+00,2024-02-02 09:00:00+00,JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP,,
        \(phone),\(user),,phone,verified,2024-02-03 09:00:00+00,2024-02-03 09:00:00+00,,+15551234567,
        \(encrypted),\(user),laptop,totp,verified,2024-02-04 09:00:00+00,2024-02-04 09:00:00+00,"{""key_id"":""k1"",""alg"":""aes-gcm-hkdf"",""nonce"":""bm9uY2U"",""data"":""ZGF0YQ""}",,

        """

    @Test func aVerifiedFactorPassesMFAWithTheCodesOfTheExportedSecret() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let hash = "$2a$" + Bcrypt.hash("grace's password", cost: 4).dropFirst(4)
        let users = try scene.file("users.json", Self.users(hash: hash))
        let factors = try scene.file("mfa_factors.csv", Self.factors)
        let arguments = ["--from", "supabase", users, "--factors", factors]

        let first = try await scene.run(arguments)
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            ImportScene.summary(first)
                == "imported 1 (1 with a password, 0 identities, 1 TOTP factors), already present 0, refused 0",
            "\(first.output)"
        )
        #expect(
            first.output.contains("skipped factor \(Self.unverified) of \(Self.user): the factor was never verified")
        )
        #expect(first.output.contains("skipped factor \(Self.phone) of \(Self.user): unsupported factor type (phone)"))
        #expect(first.output.contains("skipped factor \(Self.encrypted) of \(Self.user): the TOTP secret is encrypted"))
        let second = try await scene.run(arguments)
        #expect(
            ImportScene.summary(second)
                == "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present 1, refused 0"
        )

        try await scene.serve { client, _, _, harness in
            let storage = harness.server.storage
            let userID = try #require(UUID(uuidString: Self.user))
            let stored = try #require(
                try await storage.read { try await $0.factor(id: UUID(uuidString: Self.verified)!, userID: userID) }
            )
            // Sealed as enrolled factors are: the database alone yields no codes.
            let sealed = try #require(stored.sealedSecret)
            #expect(SigningKeyVault.isSealed(sealed) && !sealed.contains(Self.secret))
            #expect(stored.isVerified && stored.friendlyName == "Grace's phone")
            let imported = try #require(try await storage.read { try await $0.user(id: userID) })
            #expect(imported.factors.map(\.id.uuidString).map { $0.lowercased() } == [Self.verified])

            let signedIn = try await client.signIn("grace@example.com", "grace's password")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            let token = signedIn.string("access_token")
            #expect(accessClaims(token)["aal"] as? String == "aal1")

            let app = ReferenceTOTP(base32: Self.secret)
            #expect(app.key.contains { $0 >= 0x80 })
            let now = harness.clock.now()
            let wrong = try await client.challengeAndVerify(
                Self.verified,
                code: app.code(at: now, steps: 5),
                bearer: token
            )
            #expect(wrong.status == .unprocessableContent, "\(wrong.text)")
            let raised = try await client.challengeAndVerify(Self.verified, code: app.code(at: now), bearer: token)
            #expect(raised.status == .ok, "\(raised.text)")
            #expect(accessClaims(raised.string("access_token"))["aal"] as? String == "aal2")
        }
    }

    @Test func factorRowsAreReadAsGoTrueWritesThem() throws {
        let candidate = ImportCandidate(
            sourceID: Self.user,
            user: UserRecord(
                id: UUID(uuidString: Self.user)!,
                email: "grace@example.com",
                createdAt: Date(timeIntervalSince1970: 0),
                updatedAt: Date(timeIntervalSince1970: 0)
            )
        )
        let rows = try SupabaseExport.rows(Data(Self.factors.utf8)).users
        let duplicate = rows[0].fields.merging(["id": Self.phone]) { $1 }
        let (kept, skipped) = SupabaseExport.factors(
            rows + [
                ExportRecord(fields: duplicate),
                ExportRecord(fields: rows[0].fields.merging(["secret": "not base32!"]) { $1 }),
            ],
            of: candidate,
            repeatedIDs: [UUID(uuidString: Self.phone)!]
        )
        #expect(kept.map(\.record.id) == [UUID(uuidString: Self.verified)!])
        #expect(kept.first?.secret.bytes == ReferenceTOTP.decodeBase32(Self.secret))
        #expect(kept.first?.record.lastChallengedAt == ImportTimestamp.parse("2024-03-01 08:00:05+00"))
        #expect(
            skipped.map(\.reason) == [
                .unverifiedFactor, .unsupportedFactorType("phone"), .encryptedFactorSecret, .duplicateID,
                .malformed("TOTP secret"),
            ]
        )
    }
}
