import Foundation
import GatehouseCore
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// `gatehouse-server import --from firebase` (issue 38) on an export in the shape
/// `firebase auth:export --format=json` writes, with the worked example's user of Firebase's
/// scrypt tool: sign-in with the old password over HTTP, the rehash, Google landing in the
/// imported account, a second run, the dry run, refusals, and the sealed signer key.
@Suite("Import: Firebase")
struct ImportFirebaseTests {
    static let export = """
        {"users": [
          {"localId": "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2", "email": "user1@example.com", "emailVerified": true,
           "passwordHash": "\(ImportHashTests.expectedHash)", "salt": "\(ImportHashTests.salt)",
           "displayName": "Test User 1", "createdAt": "1508893925000", "lastSignedInAt": "1508893925000",
           "customAttributes": "{\\"plan\\":\\"pro\\"}",
           "providerUserInfo": [{"providerId": "password", "rawId": "user1@example.com", "email": "user1@example.com",
             "federatedId": "user1@example.com"}]},
          {"localId": "gO0gLeUs3r0000000000000002", "email": "grace@example.com", "emailVerified": true,
           "createdAt": "1508893925000", "providerUserInfo": [{"providerId": "google.com",
             "rawId": "109876543210987654321", "email": "grace@example.com", "displayName": "Grace",
             "photoUrl": "https://lh3.googleusercontent.com/a/photo"}]},
          {"localId": "d1sabl3dUs3r000000000000003", "email": "mallory@example.com", "emailVerified": true,
           "passwordHash": "\(ImportHashTests.expectedHash)", "salt": "\(ImportHashTests.salt)", "disabled": true,
           "createdAt": "1508893925000"},
          {"localId": "b4dAddr3ss00000000000000004", "email": "not-an-address", "createdAt": "1508893925000"},
          {"localId": "tw1nA000000000000000000005", "email": "Twin@example.com", "emailVerified": true},
          {"localId": "tw1nB000000000000000000006", "email": "twin@EXAMPLE.com", "emailVerified": true}
        ]}
        """

    @Test func usersSignInWithTheirFirebasePasswordsAndGoogleLandsInTheImportedAccount() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let users = try scene.file("users.json", Self.export)
        let config = try scene.file("hash-config.txt", ImportHashTests.consoleText)

        // A dry run reports and writes nothing: the real run after it imports everyone.
        let dry = try await scene.run(["--from", "firebase", users, "--dry-run"])
        #expect(dry.status == 0, "\(dry.errors)")
        #expect(
            ImportScene.summary(dry).hasPrefix("would import 3 (2 with a password, 1 identities, 0 TOTP factors)"),
            "\(dry.output)"
        )
        let first = try await scene.run(["--from", "firebase", users, "--hash-config", config])
        #expect(first.status == 0, "\(first.errors)")
        #expect(
            ImportScene.summary(first)
                == "imported 3 (2 with a password, 1 identities, 0 TOTP factors), already present 0, refused 3",
            "\(first.output)"
        )
        #expect(first.output.contains("refused b4dAddr3ss00000000000000004: invalid e-mail address"))
        #expect(first.output.contains("refused tw1nA000000000000000000005: the address appears more than once"))
        #expect(first.output.contains("refused tw1nB000000000000000000006: the address appears more than once"))
        #expect(!(first.output + first.errors).contains("jxspr8"), "the signer key is never printed")
        // A second run changes nothing (the key, kept already, need not be given again).
        let second = try await scene.run(["--from", "firebase", users])
        #expect(second.status == 0, "\(second.errors)")
        #expect(
            ImportScene.summary(second)
                == "imported 0 (0 with a password, 0 identities, 0 TOTP factors), already present 3, refused 3"
        )
        // The admin finds a user by its Firebase uid.
        let found = try await scene.run(["find", "--from", "firebase", "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"])
        let id = ImportCandidate.derivedID(source: .firebase, sourceID: "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2")
        #expect(found.output == "\(id.uuidString.lowercased())  user1@example.com\n", "\(found.errors)")
        let unknown = try await scene.run(["find", "--from", "firebase", "b4dAddr3ss00000000000000004"])
        #expect(unknown.status != 0 && unknown.errors.contains("No user was imported"))

        try await scene.serve { client, _, google, harness in
            let storage = harness.server.storage
            let text = try await harness.databaseText()
            #expect(!text.contains("jxspr8Ki0RYycVU8") && text.contains("sealed:v1:"), "the signer key is sealed")
            let before = try #require(try await storage.read { try await $0.user(email: "user1@example.com") })
            #expect(before.id == ImportCandidate.derivedID(source: .firebase, sourceID: "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"))
            #expect(before.appMetadata["firebase_uid"] == .string("kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"))
            #expect(before.appMetadata["firebase_claims"] == .object(["plan": .string("pro")]))
            #expect(before.passwordHash?.hasPrefix("$firebase-scrypt$") == true)

            // The worked example's password signs in over HTTP, and the hash becomes the server's bcrypt.
            #expect(try await client.signIn("user1@example.com", "user1Password").status == .badRequest)
            let signedIn = try await client.signIn("user1@example.com", "user1password")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.user["id"] as? String == before.id.uuidString.lowercased())
            let after = try #require(try await storage.read { try await $0.user(email: "user1@example.com") })
            #expect(after.passwordHash?.hasPrefix("$2b$04$") == true, "rehashed with the server's bcrypt")
            #expect(try await client.signIn("user1@example.com", "user1password").status == .ok)

            // Disabled in Firebase: banned here, even with the right password.
            let banned = try await client.signIn("mallory@example.com", "user1password")
            #expect(banned.status == .badRequest && banned.text.contains("banned"), "\(banned.text)")

            // Google, whose account now reports another address, lands in the imported account.
            let grace = try #require(try await storage.read { try await $0.user(email: "grace@example.com") })
            let viaGoogle = try await IDTokenTests.signIn(
                client,
                google,
                at: harness.clock.now(),
                subject: "109876543210987654321",
                email: "grace.hopper@gmail.com"
            )
            #expect(viaGoogle.status == .ok, "\(viaGoogle.text)")
            #expect(viaGoogle.user["id"] as? String == grace.id.uuidString.lowercased())
        }
    }

    @Test func wrongPasswordsOnAnImportedHashCountInTheSameLimitsAndAForgottenKeyVerifiesNothing() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let users = try scene.file("users.json", Self.export)
        let config = try scene.file("hash-config.txt", ImportHashTests.consoleText)
        #expect(try await scene.run(["--from", "firebase", users, "--hash-config", config]).status == 0)

        try await scene.serve { client, _, _, _ in
            var statuses: [Int] = []
            for index in 0..<7 {
                statuses.append(try await client.signIn("user1@example.com", "guess \(index)").status.code)
            }
            #expect(
                statuses.prefix(5).allSatisfy { $0 == 400 } && statuses.suffix(2).allSatisfy { $0 == 429 },
                "\(statuses)"
            )
        }
        let forgotten = try await scene.run(["forget-firebase-key"])
        #expect(forgotten.status == 0 && forgotten.output.contains("deleted"), "\(forgotten.errors)")
        let again = try await scene.run(["forget-firebase-key"])
        #expect(again.output.contains("No Firebase hash parameters were kept."))
        try await scene.serve { client, _, _, harness in
            harness.clock.advance(by: 86_400)  // past the failures' delays (kept in PostgreSQL)
            let reply = try await client.signIn("user1@example.com", "user1password")
            #expect(reply.status == .badRequest, "no key kept, no password verifies")
        }
        // Without the key, a new export with hashes is not written.
        let missing = try await scene.run(["--from", "firebase", users])
        #expect(missing.status != 0 && missing.errors.contains("hash parameters"), "\(missing.output)")
    }

    /// While the Firebase parameters are kept, a wrong password on a Firebase hash, an unknown
    /// address and a user without a password each cost one bcrypt and one scrypt, so that the
    /// time of a failure does not tell "imported from Firebase" from "not registered"; once the
    /// parameters are forgotten, one bcrypt each.
    @Test func everyFailedSignInCostsTheSameWorkWhileTheFirebaseKeyIsKept() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let users = try scene.file("users.json", Self.export)
        let config = try scene.file("hash-config.txt", ImportHashTests.consoleText)
        #expect(try await scene.run(["--from", "firebase", users, "--hash-config", config]).status == 0)

        for kept in [true, false] {
            if !kept { #expect(try await scene.run(["forget-firebase-key"]).status == 0) }
            try await scene.serve { client, _, _, harness in
                let hasher = harness.server.services.passwords
                for email in ["user1@example.com", "nobody@example.com", "grace@example.com"] {
                    let before = hasher.workCount
                    let reply = try await client.signIn(email, "wrong password \(kept)")
                    #expect(reply.status == .badRequest && reply.errorCode == "invalid_credentials", "\(reply.text)")
                    let after = hasher.workCount
                    #expect(after.bcrypt - before.bcrypt == 1, "\(email), key kept: \(kept)")
                    #expect(after.scrypt - before.scrypt == (kept ? 1 : 0), "\(email), key kept: \(kept)")
                }
            }
        }
    }
}
