import Foundation
import GatehouseCore
import GatehouseStorage
import HTTPTypes
import HummingbirdBcrypt
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server import --from auth0` (issue 38): the bulk export's newline-delimited JSON,
/// with a line of the password-hash export Auth0 support provides (`_id.$oid`, `passwordHash`).
@Suite("Import: Auth0")
struct ImportAuth0Tests {
    static func export(hash: String) -> String {
        """
        {"_id":{"$oid":"5f7c8ec7c33c6c004bbafe82"},"email":"alan@example.com","email_verified":true,"passwordHash":"\(hash)","password_set_date":{"$date":"2020-10-06T15:37:43.527Z"},"tenant":"example","connection":"Username-Password-Authentication","_tmp_is_unique":true}
        {"user_id":"google-oauth2|112233445566778899","email":"kat@example.com","email_verified":true,"name":"Katherine","picture":"https://lh3.googleusercontent.com/a/k","created_at":"2021-04-01T09:00:00.000Z","last_login":"2024-05-01T09:00:00.000Z","identities":[{"provider":"google-oauth2","user_id":"112233445566778899","connection":"google-oauth2","isSocial":true}]}
        {"user_id":"auth0|blocked0000000000000001","email":"eve@example.com","email_verified":true,"blocked":true,"passwordHash":"\(hash)","identities":[{"provider":"auth0","user_id":"blocked0000000000000001","connection":"Username-Password-Authentication","isSocial":false}]}
        {"user_id":"auth0|argon00000000000000000001","email":"argon@example.com","email_verified":true,"custom_password_hash":{"algorithm":"argon2","hash":{"value":"$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2g"}}}
        {"user_id":"auth0|md5000000000000000000001","email":"md5@example.com","email_verified":true,"passwordHash":"5f4dcc3b5aa765d61d8327deb882cf99"}
        {not json at all

        """
    }

    @Test func usersSignInWithTheirAuth0PasswordsAndGoogleLandsInTheImportedAccount() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let users = try scene.file("users.ndjson", Self.export(hash: Bcrypt.hash("alan's old password", cost: 10)))

        let dry = try await scene.run(["--from", "auth0", users, "--dry-run"])
        #expect(
            ImportScene.summary(dry).hasPrefix("would import 3 (2 with a password, 1 identities, 0 TOTP factors)"),
            "\(dry.output)\(dry.errors)"
        )
        let first = try await scene.run(["--from", "auth0", users])
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            ImportScene.summary(first)
                == "imported 3 (2 with a password, 1 identities, 0 TOTP factors), already present 0, refused 3",
            "\(first.output)"
        )
        #expect(
            first.output.contains("refused auth0|argon00000000000000000001: unknown password hash algorithm (argon2)")
        )
        #expect(
            first.output.contains(
                "refused auth0|md5000000000000000000001: unknown password hash algorithm (unrecognized)"
            )
        )
        #expect(first.output.contains("refused line 6: malformed JSON line"))
        let second = try await scene.run(["--from", "auth0", users])
        #expect(
            ImportScene.summary(second)
                == "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present 3, refused 3"
        )

        try await scene.serve { client, _, google, harness in
            let storage = harness.server.storage
            let alan = try #require(try await storage.read { try await $0.user(email: "alan@example.com") })
            #expect(alan.appMetadata["auth0_user_id"] == .string("auth0|5f7c8ec7c33c6c004bbafe82"))
            let signedIn = try await client.signIn("alan@example.com", "alan's old password")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.user["id"] as? String == alan.id.uuidString.lowercased())
            #expect(try await client.signIn("alan@example.com", "alan's new password").status == .badRequest)

            let banned = try await client.signIn("eve@example.com", "alan's old password")
            #expect(banned.status == .badRequest && banned.text.contains("banned"), "\(banned.text)")

            let kat = try #require(try await storage.read { try await $0.user(email: "kat@example.com") })
            let viaGoogle = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "112233445566778899",
                email: "katherine.j@gmail.com"
            )
            #expect(viaGoogle.status == .ok, "\(viaGoogle.text)")
            #expect(viaGoogle.user["id"] as? String == kat.id.uuidString.lowercased())
        }
    }
}
