import Foundation
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: a row whose required column is missing or unreadable (an id that is not a UUID, a
/// time that is not a number) makes the read throw ``StoredValueError``, naming the table, the
/// column and the value, instead of reading as a made-up id, an empty text or 1970. Over HTTP the
/// request fails with 500 `unexpected_failure`, never answering with a guessed record.
@Suite("Corrupt rows read from storage")
struct CorruptRowTests {
    /// Runs `sql` on the server's SQLite file, as a corrupt row or a hand edit would.
    static func write(_ sql: String, _ binds: [SQLValue], _ harness: Harness) async throws {
        try await harness.server.storage.transaction { tx in
            _ = try await (tx as! SQLTransaction).query(sql, binds)
        }
    }

    static func userID(_ reply: Reply) throws -> UUID {
        let claim = accessClaims(reply.string("access_token"))["sub"] as? String
        return try #require(claim.flatMap(UUID.init(uuidString:)))
    }

    /// SQLite stores what it is given; PostgreSQL's `double precision` refuses a text time.
    @Test(.disabled(if: TestDatabase.isPostgres, "PostgreSQL's column type refuses a text time"))
    func aTimeThatIsNotANumberMakesTheUserReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let bearer = signedIn.string("access_token")
            let id = try Self.userID(signedIn)
            #expect(try await client.get("/user", bearer: bearer).status == .ok)
            try await Self.write(
                "UPDATE users SET created_at = ? WHERE id = ?",
                [.text("yesterday"), .text(id.key)],
                harness
            )
            let error = await #expect(throws: StoredValueError.self) {
                try await harness.server.storage.read { try await $0.user(id: id) }
            }
            #expect(error?.column == "users.created_at" && error?.value == "yesterday")
            #expect(error?.description.contains("a time in seconds") == true, "\(String(describing: error))")
            let user = try await client.get("/user", bearer: bearer)
            #expect(user.status == .internalServerError && user.errorCode == "unexpected_failure")
            // The row repaired, the account answers again.
            try await Self.write(
                "UPDATE users SET created_at = ? WHERE id = ?",
                [.float(1_795_700_000), .text(id.key)],
                harness
            )
            #expect(try await client.get("/user", bearer: bearer).status == .ok)
        }
    }

    /// Metadata that is not a JSON object used to read as `{}`: an update would then have written
    /// the empty object back over what was there. Now the user's read fails, and so does the
    /// request, until the row is repaired.
    @Test func metadataThatIsNotJSONMakesTheUserReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let bearer = signedIn.string("access_token")
            let id = try Self.userID(signedIn)
            try await Self.write(
                "UPDATE users SET raw_user_meta_data = ? WHERE id = ?",
                [.text("{\"theme\": \"dark\""), .text(id.key)],
                harness
            )
            let error = await #expect(throws: StoredValueError.self) {
                try await harness.server.storage.read { try await $0.user(id: id) }
            }
            #expect(error?.column == "users.raw_user_meta_data" && error?.value == "{\"theme\": \"dark\"")
            #expect(error?.description.contains("a JSON object") == true, "\(String(describing: error))")
            let user = try await client.get("/user", bearer: bearer)
            #expect(user.status == .internalServerError && user.errorCode == "unexpected_failure")
            try await Self.write(
                "UPDATE users SET raw_user_meta_data = ? WHERE id = ?",
                [.text("{\"theme\":\"dark\"}"), .text(id.key)],
                harness
            )
            let repaired = try await client.get("/user", bearer: bearer)
            #expect(repaired.status == .ok && repaired.text.contains("\"theme\":\"dark\""), "\(repaired.text)")
        }
    }

    /// An identity whose id is not a UUID used to read as a fresh random id on every read (an
    /// `identity_id` no unlink could name); now the user's read fails.
    @Test func anIdentityIdThatIsNotAUUIDMakesTheUserReadThrow() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signedIn = try await client.confirmedSession(email: "ada@example.com")
            let bearer = signedIn.string("access_token")
            let userID = try Self.userID(signedIn)
            let now = harness.clock.now()
            let identity = IdentityRecord(
                userID: userID,
                provider: .google,
                subject: "google-subject-1",
                email: "ada@example.com",
                data: [:],
                lastSignInAt: now,
                createdAt: now,
                updatedAt: now
            )
            try await harness.server.storage.transaction { try await $0.insertIdentity(identity) }
            let listed = try await client.get("/user", bearer: bearer)
            #expect(listed.status == .ok)
            try await Self.write(
                "UPDATE identities SET id = ? WHERE id = ?",
                [.text("not-a-uuid"), .text(identity.id.key)],
                harness
            )
            let error = await #expect(throws: StoredValueError.self) {
                try await harness.server.storage.read { try await $0.user(id: userID) }
            }
            #expect(error?.column == "identities.id" && error?.value == "not-a-uuid")
            let user = try await client.get("/user", bearer: bearer)
            #expect(user.status == .internalServerError && user.errorCode == "unexpected_failure")
        }
    }

    /// What the error says for each way a required column can be wrong.
    @Test func theErrorNamesTheTableColumnAndValue() throws {
        let row = SQLRow(values: ["id": .text("42"), "at": .null, "n": .text("many")])
        #expect(throws: StoredValueError(column: "users.id", value: "42", expected: "a UUID")) {
            try row.uuid("id", of: "users")
        }
        #expect(throws: StoredValueError(column: "users.at", value: "NULL", expected: "a time in seconds")) {
            try row.date("at", of: "users")
        }
        #expect(throws: StoredValueError(column: "users.n", value: "many", expected: "an integer")) {
            try row.integer("n", of: "users")
        }
        #expect(
            throws: StoredValueError(column: "users.email", value: "nothing (no such column)", expected: "text")
        ) {
            try row.text("email", of: "users")
        }
        let id = UUID()
        #expect(try SQLRow(values: ["id": .text(id.key)]).uuid("id", of: "users") == id)
    }
}
