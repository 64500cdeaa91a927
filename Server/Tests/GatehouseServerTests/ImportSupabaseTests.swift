import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import HummingbirdBcrypt
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server import --from supabase` (issue 38): `auth.users` as `json_agg` writes it,
/// `auth.identities` as `COPY … TO STDOUT WITH CSV HEADER` writes it, bcrypt hashes in
/// Supabase's `$2a$` form.
@Suite("Import: Supabase")
struct ImportSupabaseTests {
    static let ada = "6d3f1e1c-5b7a-4c1e-9a55-2f1c8b9d0e11"
    static let guest = "0b8c2a44-1f6e-4d3a-8c5b-7e9f0a1b2c3d"

    static func users(hash: String) -> String {
        """
        [{"instance_id": "00000000-0000-0000-0000-000000000000", "id": "\(ada)", "aud": "authenticated",
          "role": "authenticated", "email": "ada@example.com", "encrypted_password": "\(hash)",
          "email_confirmed_at": "2024-01-15T10:30:00.123456+00:00", "invited_at": null,
          "confirmation_token": "", "confirmation_sent_at": "2024-01-15T10:29:00.5+00:00",
          "last_sign_in_at": "2024-03-01T08:00:00+00:00",
          "raw_app_meta_data": {"provider": "email", "providers": ["email", "apple"]},
          "raw_user_meta_data": {"full_name": "Ada Lovelace"}, "is_super_admin": null,
          "created_at": "2024-01-15T10:29:00.5+00:00", "updated_at": "2024-03-01T08:00:00+00:00",
          "phone": null, "banned_until": null, "deleted_at": null, "is_anonymous": false, "is_sso_user": false},
         {"id": "\(guest)", "aud": "authenticated", "role": "authenticated", "email": null,
          "encrypted_password": "", "email_confirmed_at": null, "raw_app_meta_data": {}, "raw_user_meta_data": {},
          "created_at": "2024-02-01T00:00:00+00:00", "updated_at": "2024-02-01T00:00:00+00:00",
          "is_anonymous": true, "deleted_at": null},
         {"id": "a5e0c7b2-3d4f-4a1b-9c8d-7e6f5a4b3c2d", "email": "argon@example.com",
          "encrypted_password": "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2g",
          "email_confirmed_at": "2024-01-15T10:30:00+00:00", "created_at": "2024-01-15T10:30:00+00:00"},
         {"id": "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f", "email": "gone@example.com", "encrypted_password": "",
          "created_at": "2024-01-15T10:30:00+00:00", "deleted_at": "2024-02-15T10:30:00+00:00"},
         {"id": "not-a-uuid", "email": "odd@example.com"}]
        """
    }

    /// `\\copy (SELECT provider_id, user_id, identity_data, provider, last_sign_in_at, created_at,
    /// updated_at, email, id FROM auth.identities) TO 'identities.csv' WITH CSV HEADER`.
    static let identities = """
        provider_id,user_id,identity_data,provider,last_sign_in_at,created_at,updated_at,email,id
        \(ada),\(ada),"{""sub"": ""\(ada)"", ""email"": ""ada@example.com"", ""email_verified"": true}",email,2024-03-01 08:00:00+00,2024-01-15 10:29:00.5+00,2024-03-01 08:00:00+00,ada@example.com,1f2e3d4c-5b6a-4789-9abc-def012345678
        001234.8f1e2d3c4b5a69788796a5b4c3d2e1f0.0999,\(ada),"{""iss"": ""https://appleid.apple.com"", ""sub"": ""001234.8f1e2d3c4b5a69788796a5b4c3d2e1f0.0999"", ""email"": ""x7@privaterelay.appleid.com""}",apple,,2024-02-01 12:00:00.123+00,2024-02-01 12:00:00.123+00,x7@privaterelay.appleid.com,2a3b4c5d-6e7f-4809-a1b2-c3d4e5f60718

        """

    @Test func usersKeepTheirIdsPasswordsAndAppleIdentity() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let hash = "$2a$" + Bcrypt.hash("ada's old password", cost: 10).dropFirst(4)
        let users = try scene.file("users.json", Self.users(hash: hash))
        let identities = try scene.file("identities.csv", Self.identities)
        let arguments = ["--from", "supabase", users, "--identities", identities]

        let dry = try await scene.run(arguments + ["--dry-run"])
        #expect(
            ImportScene.summary(dry).hasPrefix("would import 2 (1 with a password, 1 identities, 0 TOTP factors)"),
            "\(dry.output)\(dry.errors)"
        )
        let first = try await scene.run(arguments)
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            ImportScene.summary(first)
                == "imported 2 (1 with a password, 1 identities, 0 TOTP factors), already present 0, refused 3",
            "\(first.output)"
        )
        #expect(
            first.output.contains(
                "refused a5e0c7b2-3d4f-4a1b-9c8d-7e6f5a4b3c2d: unknown password hash algorithm (argon2id)"
            )
        )
        #expect(first.output.contains("refused c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f: deleted in the source"))
        #expect(first.output.contains("refused not-a-uuid: no usable id"))
        let second = try await scene.run(arguments)
        #expect(
            ImportScene.summary(second)
                == "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present 2, refused 3"
        )

        try await scene.serve { client, apple, _, harness in
            let storage = harness.server.storage
            let guest = try #require(try await storage.read { try await $0.user(id: UUID(uuidString: Self.guest)!) })
            #expect(guest.isAnonymous && guest.email == nil)
            let before = try #require(try await storage.read { try await $0.user(id: UUID(uuidString: Self.ada)!) })
            #expect(before.emailConfirmedAt != nil && before.userMetadata["full_name"] == .string("Ada Lovelace"))

            let signedIn = try await client.signIn("ada@example.com", "ada's old password")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.user["id"] as? String == Self.ada)
            let after = try #require(try await storage.read { try await $0.user(email: "ada@example.com") })
            #expect(after.passwordHash?.hasPrefix("$2b$") == true && after.passwordHash != before.passwordHash)
            #expect(try await client.signIn("ada@example.com", "ada's old password").status == .ok)

            let viaApple = try await IDTokenTests.signIn(
                client,
                apple,
                at: harness.clock.now(),
                subject: "001234.8f1e2d3c4b5a69788796a5b4c3d2e1f0.0999",
                email: "x7@privaterelay.appleid.com"
            )
            #expect(viaApple.status == .ok, "\(viaApple.text)")
            #expect(viaApple.user["id"] as? String == Self.ada)
        }
    }
}
