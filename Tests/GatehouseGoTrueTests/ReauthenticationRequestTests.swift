import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each sensitive action's proof on the wire, as `Server/openapi.yaml` says: the mailed code as
/// `nonce` in the JSON body (beside the action's own fields, or alone for the routes whose other
/// input is in the path or query), `reauthentication_nonce` when linking an ID token (whose own
/// `nonce` is the token's), and nothing at all without a code.
@Suite("GoTrue backend: reauthentication proofs")
struct ReauthenticationRequestTests {
    let session = Session(
        accessToken: "access-0",
        refreshToken: "refresh-0",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        user: User(id: "u")
    )
    let factorID = "0d5a4f2e-8c61-4e0b-9b0e-6a1c2d3e4f50"
    let passkeyID = UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!

    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(
            configuration: .init(url: URL(string: "http://127.0.0.1:9999/auth/v1")!),
            transport: transport.transport
        )
    }

    /// Method, path with query, bearer and JSON body (`nil`: no body) of request `index`.
    func recorded(_ transport: RecordingTransport, _ index: Int = 0) throws -> (String, String, String?, NSDictionary?)
    {
        let request = try #require(transport.requests.dropFirst(index).first)
        let url = try #require(request.url)
        let target = url.path + (url.query.map { "?\($0)" } ?? "")
        let body = try request.httpBody.map { _ in try transport.bodyJSON(index) as NSDictionary }
        if body != nil {
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json;charset=UTF-8")
        }
        return (request.httpMethod ?? "", target, request.value(forHTTPHeaderField: "Authorization"), body)
    }

    @Test func reauthenticateIsAGetWithTheBearerAndNoBodyAndIsNotRetried() async throws {
        let transport = RecordingTransport([.http(200, "{}")])
        try await backend(transport).reauthenticate(for: session)
        let (method, target, bearer, body) = try recorded(transport)
        #expect(method == "GET" && target == "/auth/v1/reauthenticate" && bearer == "Bearer access-0" && body == nil)

        let lost = RecordingTransport([.failure(URLError(.networkConnectionLost)), .http(200, "{}")])
        await #expect(throws: AuthError.self) { try await backend(lost).reauthenticate(for: session) }
        #expect(lost.requests.count == 1, "a second mail would be refused by the send spacing")
    }

    @Test func theSpacingRefusalComesBackAsTheServerSaidIt() async throws {
        let transport = RecordingTransport([
            .http(
                429,
                #"{"code":429,"error_code":"over_email_send_rate_limit","msg":"only after 42 seconds"}"#,
                ["Retry-After": "42"]
            )
        ])
        let error = await #expect(throws: AuthError.self) { try await backend(transport).reauthenticate(for: session) }
        #expect(error?.code == .overEmailSendRateLimit && error?.retryAfter == 42 && error?.httpStatus == 429)
    }

    @Test func deletionSendsTheCodeAsNonceAndNoBodyWithoutOne() async throws {
        let transport = RecordingTransport([.http(200, "{}"), .http(200, "{}")])
        try await backend(transport).deleteAccount(session, nonce: "123456")
        try await backend(transport).deleteAccount(session)
        #expect(try recorded(transport, 0) == ("DELETE", "/auth/v1/user", "Bearer access-0", ["nonce": "123456"]))
        #expect(try recorded(transport, 1) == ("DELETE", "/auth/v1/user", "Bearer access-0", nil))
    }

    @Test func logoutOfOtherSessionsSendsTheCodeInTheBodyBesideTheScope() async throws {
        let transport = RecordingTransport([.http(204, ""), .http(204, ""), .http(204, "")])
        try await backend(transport).signOut(session, scope: .others, nonce: "123456")
        try await backend(transport).signOut(session, scope: .global, nonce: "654321")
        try await backend(transport).signOut(session, scope: .others)
        #expect(
            try recorded(transport, 0) == (
                "POST", "/auth/v1/logout?scope=others", "Bearer access-0", ["nonce": "123456"]
            )
        )
        #expect(
            try recorded(transport, 1) == (
                "POST", "/auth/v1/logout?scope=global", "Bearer access-0", ["nonce": "654321"]
            )
        )
        #expect(try recorded(transport, 2) == ("POST", "/auth/v1/logout?scope=others", "Bearer access-0", nil))
    }

    @Test func aLogoutOfOthersWhoseSessionIsGoneIsAnErrorNotASignOut() async throws {
        let gone = #"{"code":403,"error_code":"session_not_found","msg":"Session not found"}"#
        let transport = RecordingTransport([.http(403, gone), .http(403, gone)])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).signOut(session, scope: .others, nonce: nil)
        }
        #expect(error?.code == .sessionNotFound, "nothing was ended: the caller must hear it")
        try await backend(transport).signOut(session, scope: .global, nonce: nil)
    }

    @Test func aLogoutWithACodeIsNotRetriedSinceTheCodeMayBeSpent() async throws {
        let transport = RecordingTransport([.failure(URLError(.networkConnectionLost)), .http(204, "")])
        await #expect(throws: AuthError.self) {
            try await backend(transport).signOut(session, scope: .others, nonce: "123456")
        }
        #expect(transport.requests.count == 1)
    }

    @Test func refusalsForWantOfProofAreThrownNotTakenForASignOut() async throws {
        let transport = RecordingTransport([
            .http(400, #"{"code":400,"error_code":"reauthentication_needed","msg":"send a nonce"}"#),
            .http(422, #"{"code":422,"error_code":"insufficient_aal","msg":"AAL2 required"}"#),
        ])
        let needed = await #expect(throws: AuthError.self) {
            try await backend(transport).signOut(session, scope: .global, nonce: nil)
        }
        #expect(needed?.code == .reauthenticationNeeded && needed?.recovery == .reauthenticate)
        let aal = await #expect(throws: AuthError.self) {
            try await backend(transport).signOut(session, scope: .others, nonce: nil)
        }
        #expect(aal?.code == .insufficientAAL && aal?.recovery == .verifySecondFactor)
    }

    @Test func factorEnrolmentSendsTheCodeBesideTheFactorAndRemovalAlone() async throws {
        let enrolled = #"""
            {"id":"\#(factorID)","type":"totp","friendly_name":"phone","phone":"",
             "totp":{"qr_code":"<svg/>","secret":"JBSWY3DPEHPK3PXP","uri":"otpauth://totp/x"}}
            """#
        let transport = RecordingTransport([
            .http(200, enrolled), .http(200, enrolled), .http(200, #"{"id":"\#(factorID)"}"#),
            .http(200, #"{"id":"\#(factorID)"}"#),
        ])
        _ = try await backend(transport).enrollTOTP(friendlyName: "phone", nonce: "123456", for: session)
        _ = try await backend(transport).enrollTOTP(friendlyName: "phone", for: session)
        try await backend(transport).unenrollFactor(factorID, nonce: "123456", for: session)
        try await backend(transport).unenrollFactor(factorID, for: session)
        #expect(
            try recorded(transport, 0) == (
                "POST", "/auth/v1/factors", "Bearer access-0",
                ["factor_type": "totp", "friendly_name": "phone", "nonce": "123456"]
            )
        )
        #expect(
            try recorded(transport, 1) == (
                "POST", "/auth/v1/factors", "Bearer access-0", ["factor_type": "totp", "friendly_name": "phone"]
            )
        )
        #expect(
            try recorded(transport, 2) == (
                "DELETE", "/auth/v1/factors/\(factorID)", "Bearer access-0", ["nonce": "123456"]
            )
        )
        #expect(try recorded(transport, 3) == ("DELETE", "/auth/v1/factors/\(factorID)", "Bearer access-0", nil))
    }

    @Test func passkeyRenameSendsTheCodeBesideTheNameAndRemovalAlone() async throws {
        let id = passkeyID.uuidString.lowercased()
        let renamed = #"{"id":"\#(id)","friendly_name":"Laptop","created_at":"2026-01-02T03:04:05Z"}"#
        let transport = RecordingTransport([
            .http(200, renamed), .http(200, renamed), .http(204, ""), .http(204, ""), .http(200, Self.options),
        ])
        let backend = backend(transport)
        _ = try await backend.renamePasskey(passkeyID, to: "Laptop", nonce: "123456", session: session)
        _ = try await backend.renamePasskey(passkeyID, to: "Laptop", session: session)
        try await backend.removePasskey(passkeyID, nonce: "123456", session: session)
        try await backend.removePasskey(passkeyID, session: session)
        _ = try await backend.passkeyRegistrationRequest(for: session, nonce: "123456")
        #expect(
            try recorded(transport, 0) == (
                "PATCH", "/auth/v1/passkeys/\(id)", "Bearer access-0", ["friendly_name": "Laptop", "nonce": "123456"]
            )
        )
        #expect(
            try recorded(transport, 1) == (
                "PATCH", "/auth/v1/passkeys/\(id)", "Bearer access-0", ["friendly_name": "Laptop"]
            )
        )
        #expect(
            try recorded(transport, 2) == ("DELETE", "/auth/v1/passkeys/\(id)", "Bearer access-0", ["nonce": "123456"])
        )
        #expect(try recorded(transport, 3) == ("DELETE", "/auth/v1/passkeys/\(id)", "Bearer access-0", nil))
        #expect(
            try recorded(transport, 4) == (
                "POST", "/auth/v1/passkeys/registration/options", "Bearer access-0", ["nonce": "123456"]
            )
        )
    }

    @Test func linkingSendsTheCodeAsReauthenticationNonceBesideTheTokensOwnNonce() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON()), .http(200, Fixtures.sessionJSON())])
        let credential = IDTokenCredential(provider: .google, idToken: "google.jwt.token", nonce: "raw-nonce")
        let linked = try await SignInDevice.$name.withValue("Ada's iPhone") {
            try await backend(transport).linkIdentity(credential, nonce: "123456", for: session)
        }
        #expect(linked.accessToken == "access-1")
        #expect(
            try recorded(transport, 0) == (
                "POST", "/auth/v1/token?grant_type=id_token", "Bearer access-0",
                [
                    "provider": "google", "id_token": "google.jwt.token", "nonce": "raw-nonce",
                    "link_identity": true, "reauthentication_nonce": "123456", "device": "Ada's iPhone",
                ]
            )
        )
        _ = try await backend(transport).linkIdentity(credential, nonce: nil, for: session)
        #expect(
            try recorded(transport, 1) == (
                "POST", "/auth/v1/token?grant_type=id_token", "Bearer access-0",
                ["provider": "google", "id_token": "google.jwt.token", "nonce": "raw-nonce", "link_identity": true]
            )
        )
    }

    @Test func anAddressOrPasswordChangeSendsTheCodeBesideTheChange() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.userJSON)])
        _ = try await backend(transport).updateUser(
            UserChanges(email: "ada@new.example", nonce: "123456"),
            for: session
        )
        #expect(
            try recorded(transport) == (
                "PUT", "/auth/v1/user", "Bearer access-0", ["email": "ada@new.example", "nonce": "123456"]
            )
        )
    }

    /// A registration options answer.
    static let options = #"""
        {"challenge_id":"0d5a4f2e-8c61-4e0b-9b0e-6a1c2d3e4f50","expires_at":1900000000,
         "options":{"challenge":"AAAA","rp":{"id":"example.com","name":"Example"},
          "user":{"id":"AAAA","name":"ada@example.com","displayName":"ada@example.com"},
          "pubKeyCredParams":[{"type":"public-key","alg":-7}]}}
        """#
}
