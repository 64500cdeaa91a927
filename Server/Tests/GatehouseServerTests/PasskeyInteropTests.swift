import Foundation
import GatehouseServer
import HummingbirdTesting
import Testing

/// An independent software authenticator in Python (PyPI `cryptography` and `cbor2`,
/// Server/Tests/Interop/passkeys.py) against the real server over loopback: ES256, RS256 and
/// EdDSA passkeys, every refusal with its code, and hundreds of mutated credentials.
///
/// `.ci/run` installs the packages (Server/Tests/Interop/requirements.txt). Locally without
/// them the test is skipped, unless `CI` is set: then they are required.
@Suite("Passkeys against a Python authenticator")
struct PasskeyInteropTests {
    static var packagesInstalled: Bool { PythonModules.installed("cbor2, cryptography") }

    @Test(
        .enabled(
            if: packagesInstalled || PythonInteropTests.required,
            "python3 with cbor2 and cryptography is not installed (CI installs them)"
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
            let run = try await InteropScript.run("passkeys.py", ["http://127.0.0.1:\(port)", serviceRole])
            let text = run.output
            #expect(run.status == 0, "\(text)")
            #expect(text.contains("30 passed, 0 failed"))
            let regressed = text.split(separator: "\n").first { $0.hasPrefix("regressed-user ") }?.split(separator: " ")
                .last
            let entries = try await harness.server.storage.read { try await $0.auditEntries(limit: 10_000) }
            let flagged = entries.filter { $0.action == "passkey_sign_count_regressed" }
            #expect(flagged.count == 1)
            #expect(flagged.first?.actorID?.uuidString.lowercased() == regressed.map(String.init))
        }
    }
}
