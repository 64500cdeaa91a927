import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

@Suite("GoTrue e-mail change replies")
struct EmailChangeReplyTests {
    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(
            configuration: .init(url: URL(string: "http://127.0.0.1:9999")!, now: { Date(timeIntervalSince1970: 0) }),
            transport: transport.transport
        )
    }

    @Test func oneConfirmedSideIsPendingNotASession() async throws {
        let body =
            #"{"msg":"Confirmation link accepted. Please proceed to confirm link sent to the other email","code":"200"}"#
        let transport = RecordingTransport([.http(200, body)])
        let result = try await backend(transport).verifyEmailChange(email: "ada@new.example", code: "123456")
        #expect(result == .otherAddressPending)
        #expect(
            try transport.bodyJSON(0) as NSDictionary == [
                "type": "email_change", "email": "ada@new.example", "token": "123456",
            ]
        )
    }

    @Test func bothSidesGiveASession() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        guard
            case .completed(let session) = try await backend(transport).verifyEmailChange(
                email: "ada@new.example",
                code: "123456"
            )
        else {
            Issue.record("expected a session")
            return
        }
        #expect(session.accessToken == "access-1")
    }

    @Test func aPlainVerifyReportsThePendingSideAsAnError() async throws {
        let body =
            #"{"msg":"Confirmation link accepted. Please proceed to confirm link sent to the other email","code":"200"}"#
        let transport = RecordingTransport([.http(200, body)])
        await #expect(throws: AuthError.emailChangeConfirmationPending()) {
            try await backend(transport).verifyCode(email: "a@b.c", code: "1", type: .emailChange)
        }
    }
}
