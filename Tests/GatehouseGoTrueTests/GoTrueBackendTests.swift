import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("GoTrue backend requests and replies")
struct GoTrueBackendTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func backend(_ transport: RecordingTransport, apiKey: String? = nil) -> GoTrueBackend {
        let now = self.now
        return GoTrueBackend(
            configuration: .init(url: URL(string: "http://127.0.0.1:9999/auth/v1")!, apiKey: apiKey, now: { now }),
            transport: transport.transport
        )
    }

    var session: Session {
        Session(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: now, user: User(id: "u"))
    }

    @Test func passwordSignInSendsTheProtocolRequest() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        let result = try await backend(transport).signIn(email: "ada@example.com", password: "pw")

        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "http://127.0.0.1:9999/auth/v1/token?grant_type=password")
        #expect(request.value(forHTTPHeaderField: "X-Supabase-Api-Version") == "2024-01-01")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json;charset=UTF-8")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(try transport.bodyJSON(0) as NSDictionary == ["email": "ada@example.com", "password": "pw"])
        #expect(result.accessToken == "access-1")
        #expect(result.expiresAt == now.addingTimeInterval(3600), "expiry from expires_in and the local clock")
        #expect(result.user.id == "7c9e6679-7425-40de-944b-e07fc1f90ae7")
    }

    @Test func apiKeyIsSentForSupabaseGateways() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        _ = try await backend(transport, apiKey: "anon").signIn(email: "a@b.c", password: "pw")
        #expect(transport.requests.first?.value(forHTTPHeaderField: "apikey") == "anon")
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer anon")
    }

    @Test func signUpReturnsConfirmationRequiredForABareUser() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.userJSON)])
        let outcome = try await backend(transport).signUp(email: "ada@example.com", password: "pw", upgrading: nil)
        guard case .confirmationRequired(let user) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(user.email == "ada@example.com")
        #expect(transport.requests.first?.url?.path == "/auth/v1/signup")
    }

    @Test func guestSignUpUpdatesTheUserThenRefreshes() async throws {
        let transport = RecordingTransport([
            .http(200, Fixtures.userJSON), .http(200, Fixtures.sessionJSON(access: "access-2")),
        ])
        let outcome = try await backend(transport).signUp(email: "ada@example.com", password: "pw", upgrading: session)
        guard case .signedIn(let new) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(new.accessToken == "access-2")
        #expect(
            transport.requests.map { "\($0.httpMethod!) \($0.url!.path)" } == [
                "PUT /auth/v1/user", "POST /auth/v1/token",
            ]
        )
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer access-0")
        #expect(try transport.bodyJSON(1) as NSDictionary == ["refresh_token": "refresh-0"])
    }

    @Test func anonymousSignInPostsAnEmptySignUp() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON(anonymous: true))])
        let result = try await backend(transport).signInAnonymously()
        #expect(result.user.isAnonymous)
        #expect(try transport.bodyJSON(0) as NSDictionary == ["data": [String: Any]()])
    }

    @Test func verifyAndOtpAndRecoverUseTheirEndpoints() async throws {
        let transport = RecordingTransport([.http(200, "{}"), .http(200, Fixtures.sessionJSON()), .http(200, "{}")])
        let backend = backend(transport)
        try await backend.sendMagicCode(to: "ada@example.com")
        _ = try await backend.verifyCode(email: "ada@example.com", code: "123456", type: .email)
        try await backend.resetPassword(email: "ada@example.com")
        #expect(transport.requests.map(\.url!.path) == ["/auth/v1/otp", "/auth/v1/verify", "/auth/v1/recover"])
        #expect(try transport.bodyJSON(0) as NSDictionary == ["email": "ada@example.com", "create_user": true])
        #expect(
            try transport.bodyJSON(1) as NSDictionary == [
                "email": "ada@example.com", "token": "123456", "type": "email",
            ]
        )
    }

    @Test func modernErrorEnvelopeBecomesAnAuthError() async throws {
        let transport = RecordingTransport([
            .http(
                400,
                #"{"code":"invalid_credentials","message":"Invalid login credentials"}"#,
                ["X-Supabase-Api-Version": "2024-01-01"]
            )
        ])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).signIn(email: "a@b.c", password: "x")
        }
        #expect(error?.code == .invalidCredentials)
        #expect(error?.message == "Invalid login credentials")
        #expect(error?.httpStatus == 400)
        #expect(error?.endsSession == false)
    }

    @Test func legacyErrorEnvelopeBecomesAnAuthError() async throws {
        let transport = RecordingTransport([
            .http(400, #"{"code":400,"error_code":"refresh_token_not_found","msg":"Invalid Refresh Token"}"#)
        ])
        let error = await #expect(throws: AuthError.self) { try await backend(transport).refresh(session) }
        #expect(error?.code == .refreshTokenNotFound)
        #expect(error?.endsSession == true)
    }

    @Test func rateLimitHonoursRetryAfter() async throws {
        let transport = RecordingTransport([
            .http(429, #"{"code":"over_request_rate_limit","message":"slow down"}"#, ["Retry-After": "42"])
        ])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).signIn(email: "a@b.c", password: "x")
        }
        #expect(error?.code == .overRequestRateLimit)
        #expect(error?.retryAfter == 42)
        #expect(error?.message.contains("42 seconds") == true)
        #expect(error?.isRetryable == true)
    }

    @Test(arguments: [
        (502, "<html><body>Bad Gateway</body></html>", ErrorCode.unexpectedFailure),
        (200, #"{"access_token":"a","token_ty"#, ErrorCode.invalidResponse),
        (200, "<html>hello</html>", ErrorCode.invalidResponse),
        (403, "", ErrorCode.unknown),
    ])
    func brokenRepliesAreClearErrorsThatNeverEndTheSession(status: Int, body: String, code: ErrorCode) async throws {
        let transport = RecordingTransport([.http(status, body)])
        let error = await #expect(throws: AuthError.self) { try await backend(transport).refresh(session) }
        #expect(error?.code == code)
        #expect(error?.endsSession == false)
    }

    @Test func aHugeBodyIsRefused() async throws {
        let huge = String(repeating: "x", count: (1 << 20) + 1)
        let transport = RecordingTransport([.http(200, huge)])
        let error = await #expect(throws: AuthError.self) { try await backend(transport).signInAnonymously() }
        #expect(error?.code == .invalidResponse)
    }

    @Test func idempotentRequestsAreRetriedOnceAfterATransportFailure() async throws {
        let transport = RecordingTransport([.failure(URLError(.networkConnectionLost)), .http(200, Fixtures.userJSON)])
        let user = try await backend(transport).user(for: session)
        #expect(user.email == "ada@example.com")
        #expect(transport.requests.count == 2)
    }

    @Test func nonIdempotentRequestsAreNotRetried() async throws {
        let transport = RecordingTransport([.failure(URLError(.timedOut)), .http(200, Fixtures.sessionJSON())])
        let error = await #expect(throws: AuthError.self) {
            try await backend(transport).signIn(email: "a@b.c", password: "x")
        }
        #expect(error?.code == .requestTimeout)
        #expect(transport.requests.count == 1)
    }

    @Test func signOutTreatsAGoneSessionAsSignedOut() async throws {
        let transport = RecordingTransport([.http(403, #"{"code":"session_not_found","message":"gone"}"#)])
        try await backend(transport).signOut(session, scope: .global)
        #expect(transport.requests.first?.url?.query == "scope=global")
    }
}

@Suite("GoTrue backend: ID tokens, user changes and deletion")
struct GoTrueBackendIdentityTests {
    let session = Session(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: Date(), user: User(id: "u"))

    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(configuration: .init(url: URL(string: "http://127.0.0.1:9999")!), transport: transport.transport)
    }

    @Test func appleSignInSendsTheIDTokenGrantWithTheRawNonce() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        let credential = IDTokenCredential(provider: .apple, idToken: "apple.jwt.token", nonce: "raw-nonce")
        _ = try await backend(transport).signIn(with: credential, upgrading: nil)
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "http://127.0.0.1:9999/token?grant_type=id_token")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(
            try transport.bodyJSON(0) as NSDictionary == [
                "provider": "apple", "id_token": "apple.jwt.token", "nonce": "raw-nonce",
            ]
        )
    }

    @Test func googleSignInSendsTheRawNonceGoogleSignInWasGiven() async throws {
        // GoogleSignIn puts the raw nonce into its token; the server accepts it for Google.
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        let nonce = SignInNonce()
        let credential = IDTokenCredential(provider: .google, idToken: "google.jwt.token", nonce: nonce.raw)
        _ = try await backend(transport).signIn(with: credential, upgrading: nil)
        #expect(
            try transport.bodyJSON(0) as NSDictionary == [
                "provider": "google", "id_token": "google.jwt.token", "nonce": nonce.raw,
            ]
        )
    }

    @Test func theUsersIdentitiesNameTheAppleUserIdentifier() async throws {
        let identity = #"""
            {"identity_id":"5f1c7c5e-2d0a-4d7e-9a57-0c0a3c1b2e4f","id":"001234.abcdef.0042",
             "user_id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","identity_data":{"sub":"001234.abcdef.0042"},
             "provider":"apple","email":"a@privaterelay.appleid.com",
             "created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}
            """#
        let user = Fixtures.userJSON.replacingOccurrences(
            of: #""is_anonymous":false"#,
            with: #""is_anonymous":false,"identities":[\#(identity)]"#
        )
        let transport = RecordingTransport([.http(200, user), .http(200, Fixtures.userJSON)])
        let linked = try await backend(transport).user(for: session)
        #expect(
            linked.identities == [
                UserIdentity(provider: "apple", subject: "001234.abcdef.0042", email: "a@privaterelay.appleid.com")
            ]
        )
        #expect(linked.appleUserID == "001234.abcdef.0042")
        #expect(try await backend(transport).user(for: session).appleUserID == nil)
    }

    @Test func appleSignInSendsTheAuthorizationCodeAndTheFirstAuthorizationName() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON()), .http(200, Fixtures.sessionJSON())])
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        name.nickname = "not sent"
        let credential = IDTokenCredential(
            provider: .apple,
            idToken: "apple.jwt.token",
            nonce: "raw-nonce",
            authorizationCode: "c0de",
            fullName: name
        )
        _ = try await backend(transport).signIn(with: credential, upgrading: nil)
        #expect(
            try transport.bodyJSON(0) as NSDictionary == [
                "provider": "apple", "id_token": "apple.jwt.token", "nonce": "raw-nonce",
                "authorization_code": "c0de", "full_name": ["given_name": "Ada", "family_name": "Lovelace"],
            ]
        )
        // Apple gives no name after the first authorization: an empty one is not sent.
        let later = IDTokenCredential(
            provider: .apple,
            idToken: "apple.jwt.token",
            nonce: "n2",
            fullName: PersonNameComponents()
        )
        _ = try await backend(transport).signIn(with: later, upgrading: nil)
        #expect(try transport.bodyJSON(1)["full_name"] == nil)
    }

    @Test func aGuestLinksTheIdentityWithItsOwnBearer() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.sessionJSON())])
        let credential = IDTokenCredential(provider: .google, idToken: "google.jwt.token")
        _ = try await backend(transport).signIn(with: credential, upgrading: session)
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer access-0")
        #expect(try transport.bodyJSON(0)["link_identity"] as? Bool == true)
    }

    @Test func updateAndDeleteUseTheUserEndpoint() async throws {
        let transport = RecordingTransport([.http(200, Fixtures.userJSON), .http(200, "{}")])
        let backend = backend(transport)
        _ = try await backend.updateUser(UserChanges(password: "new phrase", data: ["a": 1]), for: session)
        try await backend.deleteAccount(session)
        #expect(transport.requests.map { "\($0.httpMethod!) \($0.url!.path)" } == ["PUT /user", "DELETE /user"])
        #expect(try transport.bodyJSON(0)["password"] as? String == "new phrase")
    }
}
