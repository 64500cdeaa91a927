import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import HummingbirdBcrypt
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server import --from supabase users.csv --identities identities.csv` (issue 38):
/// both tables as `\copy auth.users TO 'users.csv' WITH CSV HEADER` writes them (every column
/// of GoTrue's `auth.users`; NULL an empty field, an empty string `""`, booleans `t`/`f`,
/// `jsonb` quoted with its quotes doubled, times as PostgreSQL prints them), then sign-in.
@Suite("Import: Supabase CSV")
struct ImportSupabaseCSVTests {
    static let ada = "6d3f1e1c-5b7a-4c1e-9a55-2f1c8b9d0e11"
    static let bob = "7e4f2a3b-6c8d-4e9f-a0b1-c2d3e4f5a6b7"
    static let guest = "0b8c2a44-1f6e-4d3a-8c5b-7e9f0a1b2c3d"
    static let pending = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"

    static let header = """
        instance_id,id,aud,role,email,encrypted_password,email_confirmed_at,invited_at,confirmation_token,\
        confirmation_sent_at,recovery_token,recovery_sent_at,email_change_token_new,email_change,email_change_sent_at,\
        last_sign_in_at,raw_app_meta_data,raw_user_meta_data,is_super_admin,created_at,updated_at,phone,\
        phone_confirmed_at,phone_change,phone_change_token,phone_change_sent_at,confirmed_at,\
        email_change_token_current,email_change_confirm_status,banned_until,reauthentication_token,\
        reauthentication_sent_at,is_sso_user,deleted_at,is_anonymous
        """

    /// One `auth.users` row: the columns this test varies, the rest as GoTrue leaves them.
    static func row(
        id: String,
        email: String?,
        hash: String,
        confirmed: String?,
        userMetadata: String = #""{}""#,
        anonymous: Bool = false
    ) -> String {
        let zero = "00000000-0000-0000-0000-000000000000"
        let created = "2024-01-15 10:29:00.5+00"
        let appMetadata = anonymous ? #""{}""# : #""{""provider"": ""email"", ""providers"": [""email""]}""#
        return [
            zero, id, "authenticated", "authenticated", email ?? "", hash.isEmpty ? #""""# : hash, confirmed ?? "", "",
            #""""#, created, #""""#, "", #""""#, #""""#, "", confirmed ?? "", appMetadata, userMetadata, "", created,
            "2024-03-01 08:00:00+00", "", "", #""""#, #""""#, "", confirmed ?? "", #""""#, "0", "", #""""#, "", "f", "",
            anonymous ? "t" : "f",
        ].joined(separator: ",")
    }

    static func users(adaHash: String, bobHash: String) -> String {
        [
            header,
            row(
                id: ada,
                email: "ada@example.com",
                hash: adaHash,
                confirmed: "2024-01-15 10:30:00.123456+00",
                userMetadata: #""{""full_name"": ""Lovelace, Ada"", ""note"": ""says \""hi\""""}""#
            ),
            row(id: bob, email: "bob@example.com", hash: bobHash, confirmed: "2024-01-16 11:00:00+00"),
            row(id: guest, email: nil, hash: "", confirmed: nil, anonymous: true),
            row(id: pending, email: "pending@example.com", hash: bobHash, confirmed: nil),
        ].joined(separator: "\n") + "\n"
    }

    /// `\copy auth.identities TO 'identities.csv' WITH CSV HEADER`: GoTrue's column order.
    static let identities = """
        provider_id,user_id,identity_data,provider,last_sign_in_at,created_at,updated_at,email,id
        \(ada),\(ada),"{""sub"": ""\(ada)"", ""email"": ""ada@example.com""}",email,2024-03-01 08:00:00+00,2024-01-15 10:29:00.5+00,2024-03-01 08:00:00+00,ada@example.com,1f2e3d4c-5b6a-4789-9abc-def012345678
        108234567890123456789,\(bob),"{""iss"": ""https://accounts.google.com"", ""sub"": ""108234567890123456789"", ""email"": ""bob@example.com""}",google,2024-03-01 08:00:00+00,2024-01-16 11:00:00+00,2024-03-01 08:00:00+00,bob@example.com,2a3b4c5d-6e7f-4809-a1b2-c3d4e5f60718

        """

    @Test func usersAndIdentitiesAsCopyWritesThemImportAndSignIn() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let adaHash = "$2a$" + Bcrypt.hash("ada's old password", cost: 4).dropFirst(4)
        let bobHash = Bcrypt.hash("bob's old password", cost: 4)
        let users = try scene.file("users.csv", Self.users(adaHash: adaHash, bobHash: bobHash))
        let identities = try scene.file("identities.csv", Self.identities)
        let arguments = ["--from", "supabase", users, "--identities", identities]

        let first = try await scene.run(arguments)
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            ImportScene.summary(first)
                == "imported 4 (3 with a password, 1 identities, 0 TOTP factors), already present 0, refused 0",
            "\(first.output)"
        )
        let second = try await scene.run(arguments)
        #expect(
            ImportScene.summary(second).hasPrefix(
                "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present 4"
            )
        )

        try await scene.serve { client, _, _, harness in
            let storage = harness.server.storage
            let ada = try #require(try await storage.read { try await $0.user(id: UUID(uuidString: Self.ada)!) })
            #expect(ada.userMetadata["full_name"] == .string("Lovelace, Ada"))
            #expect(ada.userMetadata["note"] == .string(#"says "hi""#))
            #expect(ada.emailConfirmedAt == ImportTimestamp.parse("2024-01-15 10:30:00.123456+00"))
            let guest = try #require(try await storage.read { try await $0.user(id: UUID(uuidString: Self.guest)!) })
            #expect(guest.isAnonymous && guest.email == nil && guest.passwordHash == nil)
            let bob = try #require(try await storage.read { try await $0.user(id: UUID(uuidString: Self.bob)!) })
            #expect(
                bob.identities.map(\.provider) == [.google] && bob.identities.first?.subject == "108234567890123456789"
            )
            let pending = try #require(
                try await storage.read { try await $0.user(id: UUID(uuidString: Self.pending)!) }
            )
            #expect(pending.emailConfirmedAt == nil)

            let adaIn = try await client.signIn("ada@example.com", "ada's old password")
            #expect(adaIn.status == .ok, "\(adaIn.text)")
            #expect(adaIn.user["id"] as? String == Self.ada)
            let bobIn = try await client.signIn("bob@example.com", "bob's old password")
            #expect(bobIn.status == .ok, "\(bobIn.text)")
            #expect(try await client.signIn("bob@example.com", "ada's old password").status == .badRequest)
            // NULL email_confirmed_at stays unconfirmed: the right password is not enough.
            let pendingIn = try await client.signIn("pending@example.com", "bob's old password")
            #expect(
                pendingIn.status == .badRequest && pendingIn.text.contains("email_not_confirmed"),
                "\(pendingIn.text)"
            )
        }
    }
}
