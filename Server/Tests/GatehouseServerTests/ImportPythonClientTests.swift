import Foundation
import HummingbirdBcrypt
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 38: users of all three services, imported into one database, sign in with their old
/// passwords through the official Python `supabase-auth` client (skipped where it is not
/// installed, unless `CI` is set).
@Suite("Import: the Python supabase-auth client signs imported users in")
struct ImportPythonClientTests {
    @Test(
        .enabled(
            if: PythonInteropTests.clientInstalled || PythonInteropTests.required,
            "supabase-auth is not installed"
        )
    )
    func usersOfEverySourceSignInWithTheirOldPasswords() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let config = try scene.file("hash-config.txt", ImportHashTests.consoleText)
        let firebase = try scene.file("firebase.json", ImportFirebaseTests.export)
        let supabase = try scene.file(
            "supabase.json",
            ImportSupabaseTests.users(hash: "$2a$" + Bcrypt.hash("ada's old password", cost: 10).dropFirst(4))
        )
        let auth0 = try scene.file(
            "auth0.ndjson",
            ImportAuth0Tests.export(hash: Bcrypt.hash("alan's old password", cost: 10))
        )
        for arguments in [
            ["--from", "firebase", firebase, "--hash-config", config], ["--from", "supabase", supabase],
            ["--from", "auth0", auth0],
        ] {
            let run = try await scene.run(arguments)
            #expect(run.status == 0 && ImportScene.summary(run).hasPrefix("imported"), "\(run.output)\(run.errors)")
        }
        let user1 = ImportCandidate.derivedID(source: .firebase, sourceID: "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2")
        let alan = ImportCandidate.derivedID(source: .auth0, sourceID: "auth0|5f7c8ec7c33c6c004bbafe82")
        try await scene.serve { client, _, _, _ in
            let port = try #require(client.client.port)
            let run = try await InteropScript.run(
                "imported.py",
                [
                    "http://127.0.0.1:\(port)",
                    "user1@example.com", "user1password", user1.uuidString.lowercased(),
                    "ada@example.com", "ada's old password", ImportSupabaseTests.ada,
                    "alan@example.com", "alan's old password", alan.uuidString.lowercased(),
                ]
            )
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("9 passed, 0 failed"), "\(run.output)")
        }
    }
}
