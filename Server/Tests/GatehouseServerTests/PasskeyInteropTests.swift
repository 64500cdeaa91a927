import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseStorage
import HummingbirdTesting
import Testing

/// An independent software authenticator in Python (PyPI `fido2` for the credentials' structures
/// and a second relying party, `cryptography` for keys and signatures, `cbor2` for hostile CBOR;
/// Server/Tests/Interop/passkeys.py) against the real server over loopback: ES256, RS256 and
/// EdDSA passkeys, every refusal with its code, expired challenges (the script asks this test to
/// move the server's clock), and hundreds of mutated credentials.
///
/// `.ci/run` installs the packages (Server/Tests/Interop/requirements.txt). Locally without
/// them the test is skipped, unless `CI` is set: then they are required.
@Suite("Passkeys against a Python authenticator")
struct PasskeyInteropTests {
    static var packagesInstalled: Bool { PythonModules.installed("cbor2, cryptography, fido2") }

    @Test(
        .enabled(
            if: packagesInstalled || PythonInteropTests.required,
            "python3 with cbor2, cryptography and fido2 is not installed (CI installs them)"
        )
    )
    func pythonAuthenticatorRegistersSignsInAndIsRefusedWhereItShouldBe() async throws {
        let harness = try await Harness.make {
            $0.webAuthn = WebAuthnSettings(rpID: "example.com", rpName: "Example", origins: ["https://example.com"])
        }
        defer { harness.removeFiles() }
        let serviceRole = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let port = try #require(client.client.port)
            let clock = harness.clock
            let run = try await InteropScript.run("passkeys.py", ["http://127.0.0.1:\(port)", serviceRole]) { line in
                // `clock-advance SECONDS`: the expired-challenge steps wait for the server's clock.
                guard line.hasPrefix("clock-advance "), let seconds = TimeInterval(line.dropFirst(14)) else {
                    return nil
                }
                clock.advance(by: seconds)
                return "advanced"
            }
            let text = run.output
            #expect(run.status == 0, "\(text)")
            #expect(text.contains("32 passed, 0 failed"))
            func user(_ label: String) -> String? {
                text.split(separator: "\n").first { $0.hasPrefix(label + " ") }?.split(separator: " ").last.map(
                    String.init
                )
            }
            let entries = try await harness.server.storage.read { try await $0.auditEntries(limit: 10_000) }
            let flagged = entries.filter { $0.action == .passkeySignCountRegressed }
            // The regressed counter, and the loser of the clone's race, each recorded once.
            #expect(flagged.count == 2)
            let regressed = flagged.filter { $0.actorID?.uuidString.lowercased() == user("regressed-user") }
            #expect(regressed.count == 1)
            #expect(flagged.filter { $0.actorID?.uuidString.lowercased() == user("raced-user") }.count == 1)
            // The authenticator said backup eligible and backed up (a synced passkey): both are stored.
            let stored = try await harness.server.storage.read { reader in
                try await reader.passkeys(userID: try #require(regressed.first?.actorID))
            }
            #expect(stored.count == 1)
            #expect(stored.first?.backupEligible == true && stored.first?.backedUp == true)
        }
    }
}
