import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The device label on sign-ins, `GET /user/sessions` and `DELETE /user/sessions/{id}` on the wire.
@Suite("GoTrue backend: device sessions")
struct DeviceSessionRequestTests {
    let sessionID = UUID(uuidString: "0D5A4F2E-8C61-4E0B-9B0E-6A1C2D3E4F50")!

    let session = Session(
        accessToken: "access-0",
        refreshToken: "refresh-0",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        user: User(id: "u")
    )

    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(
            configuration: .init(url: URL(string: "http://127.0.0.1:9999/auth/v1")!),
            transport: transport.transport
        )
    }

    /// A JWT-shaped token (unsigned: the client never verifies) whose `session_id` is `id`.
    func token(sessionID id: UUID) -> String {
        let payload = Data(#"{"sub":"u","session_id":"\#(id.uuidString.lowercased())"}"#.utf8)
            .base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        return "eyJhbGciOiJFUzI1NiJ9.\(payload).c2ln"
    }

    @Test func signInsSendTheDeviceLabelOfTheTask() async throws {
        let transport = RecordingTransport([
            .http(200, Fixtures.sessionJSON()), .http(200, Fixtures.sessionJSON()), .http(200, Fixtures.sessionJSON()),
        ])
        let backend = self.backend(transport)
        try await SignInDevice.$name.withValue("Ada's iPhone") {
            _ = try await backend.signIn(email: "ada@example.com", password: "pw")
            _ = try await backend.signInAnonymously()
        }
        _ = try await backend.signIn(email: "ada@example.com", password: "pw")
        #expect(try transport.bodyJSON(0)["device"] as? String == "Ada's iPhone")
        #expect(try transport.bodyJSON(1)["device"] as? String == "Ada's iPhone")
        #expect(try transport.bodyJSON(2)["device"] == nil, "no label, no field")
    }

    @Test func sessionsAreReadFromTheServersList() async throws {
        let reply = #"""
            {"sessions":[{"id":"\#(sessionID.uuidString.lowercased())","device":"laptop",
             "created_at":"2026-01-02T03:04:05.123Z","refreshed_at":"2026-01-02T04:04:05Z","ip":"10.0.0.1",
             "aal":"aal1","amr":[{"method":"password","timestamp":1767323045}],"current":true}]}
            """#
        let transport = RecordingTransport([.http(200, reply)])
        let listed = try await backend(transport).sessions(for: session)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.path == "/auth/v1/user/sessions")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer access-0")
        #expect(listed.count == 1)
        #expect(listed.first?.id == sessionID && listed.first?.device == "laptop" && listed.first?.isCurrent == true)
        #expect(listed.first?.methods == ["password"] && listed.first?.ip == "10.0.0.1")
    }

    @Test func endingASessionSaysWhetherItWasThisOne() async throws {
        let transport = RecordingTransport([.http(204, ""), .http(204, "")])
        let backend = self.backend(transport)
        var session = session
        session.accessToken = token(sessionID: sessionID)
        #expect(try await backend.endSession(id: sessionID, nonce: nil, for: session) == .current)
        #expect(try await backend.endSession(id: UUID(), nonce: "123456", for: session) == .other)
        let first = try #require(transport.requests.first)
        #expect(first.httpMethod == "DELETE")
        #expect(first.url?.path == "/auth/v1/user/sessions/\(sessionID.uuidString.lowercased())")
        #expect(try transport.bodyJSON(1)["nonce"] as? String == "123456")
    }

    @Test func aNotFoundAnswerIsNotASignOut() async throws {
        let transport = RecordingTransport([
            .http(404, #"{"code":404,"error_code":"not_found","msg":"No session with this id"}"#)
        ])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).endSession(id: sessionID, nonce: nil, for: session)
        }
        #expect(error?.code == .notFound && error?.endsSession == false)
    }
}
