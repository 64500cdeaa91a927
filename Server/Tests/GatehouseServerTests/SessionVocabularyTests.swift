import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: a session's assurance level and methods are typed (``AuthenticatorAssuranceLevel``,
/// ``AuthenticationMethod``), and a row holding one this build does not know makes the read
/// throw (``StoredValueError``) instead of reading as `aal1` (a silent downgrade) or dropping
/// the method. Over HTTP the request fails with 500 rather than answering with a guess.
@Suite("Session vocabularies read from storage")
struct SessionVocabularyTests {
    /// Sets `column` of the session `id` to `text`, as a corrupt row or another version would.
    static func overwrite(_ column: String, of id: UUID, with text: String, _ harness: Harness) async throws {
        try await harness.server.storage.transaction { tx in
            _ = try await (tx as! SQLTransaction).query(
                "UPDATE sessions SET \(column) = ? WHERE id = ?",
                [.text(text), .text(id.key)]
            )
        }
    }

    static func sessionID(_ reply: Reply) throws -> UUID {
        let claim = accessClaims(reply.string("access_token"))["session_id"] as? String
        return try #require(claim.flatMap(UUID.init(uuidString:)))
    }

    @Test func everyLevelAndMethodReadsBackAsWritten() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let id = try Self.sessionID(signedIn)
            let amr = AuthenticationMethod.allCases.enumerated().map { index, method -> AMREntry in
                let provider: AuthProvider? = index.isMultiple(of: 2) ? .apple : nil
                return AMREntry(method: method, timestamp: 1_795_700_000 + index, provider: provider)
            }
            let factor = UUID()
            let stored = try await harness.server.storage.transaction { tx in
                try await tx.elevateSession(id: id, factorID: factor, amr: amr, at: harness.clock.now())
            }
            #expect(stored?.aal == .aal2 && stored?.amr == amr)
            let read = try await harness.server.storage.read { try await $0.session(id: id) }
            #expect(read?.aal == .aal2 && read?.amr == amr && read?.factorID == factor)
            try await harness.server.storage.transaction { try await $0.downgradeSessions(factorID: factor) }
            let dropped = try await harness.server.storage.read { try await $0.session(id: id) }
            #expect(dropped?.aal == .aal1 && dropped?.amr == amr.filter { $0.method != .totp })
        }
    }

    @Test func aCorruptAssuranceLevelMakesTheReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let id = try Self.sessionID(signedIn)
            #expect(try await client.get("/user", bearer: signedIn.string("access_token")).status == .ok)
            for corrupt in ["aal3", "AAL2", ""] {
                try await Self.overwrite("aal", of: id, with: corrupt, harness)
                let error = await #expect(throws: StoredValueError.self) {
                    try await harness.server.storage.read { try await $0.session(id: id) }
                }
                #expect(error?.column == "sessions.aal" && error?.value == corrupt)
                #expect(error?.description.contains("`aal1` or `aal2`") == true, "\(String(describing: error))")
                await #expect(throws: StoredValueError.self) {
                    try await harness.server.storage.read { try await $0.sessionWithUser(id: id) }
                }
                // Neither answered as AAL1 nor as AAL2: the request fails.
                let user = try await client.get("/user", bearer: signedIn.string("access_token"))
                #expect(user.status == .internalServerError && user.errorCode == "unexpected_failure")
                let refreshed = try await client.refresh(signedIn.string("refresh_token") ?? "")
                #expect(refreshed.status == .internalServerError)
            }
            // The row repaired, the session works again.
            try await Self.overwrite("aal", of: id, with: "aal1", harness)
            #expect(try await client.get("/user", bearer: signedIn.string("access_token")).status == .ok)
        }
    }

    @Test func anUnknownMethodInASessionMakesTheReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let id = try Self.sessionID(signedIn)
            for (amr, value) in [
                (#"[{"method":"web3","timestamp":1795700000}]"#, "web3"),
                (#"[{"method":"password","timestamp":1},{"method":"sso/saml","timestamp":2}]"#, "sso/saml"),
                ("not a list", "not a list"),
            ] {
                try await Self.overwrite("amr", of: id, with: amr, harness)
                let error = await #expect(throws: StoredValueError.self) {
                    try await harness.server.storage.read { try await $0.session(id: id) }
                }
                #expect(error?.column == "sessions.amr" && error?.value == value)
                let user = try await client.get("/user", bearer: signedIn.string("access_token"))
                #expect(user.status == .internalServerError)
            }
        }
    }

    @Test func anUnknownMethodOfAFlowMakesItsReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let flow = FlowStateRecord(
            linkHash: "link-hash",
            provider: .email,
            authenticationMethod: .emailSignup,
            redirectTo: "https://app.example.com",
            createdAt: now,
            expiresAt: now.addingTimeInterval(600)
        )
        try await harness.server.storage.transaction { try await $0.insertFlowState(flow) }
        let read = try await harness.server.storage.read { try await $0.flowState(linkHash: "link-hash") }
        #expect(read?.authenticationMethod == .emailSignup)
        try await harness.server.storage.transaction { tx in
            _ = try await (tx as! SQLTransaction).query(
                "UPDATE flow_states SET authentication_method = ? WHERE id = ?",
                [.text("magiclink"), .text(flow.id.key)]
            )
        }
        let error = await #expect(throws: StoredValueError.self) {
            try await harness.server.storage.read { try await $0.flowState(linkHash: "link-hash") }
        }
        #expect(error?.column == "flow_states.authentication_method" && error?.value == "magiclink")
        try await harness.server.storage.close()
    }
}
