public import Foundation
public import Gatehouse

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// An `AuthBackend` that speaks the Supabase Auth (GoTrue) REST protocol, to a Gatehouse
/// server or any GoTrue-compatible one such as a hosted Supabase project.
///
/// ```swift
/// let backend = GoTrueBackend(url: URL(string: "http://127.0.0.1:9999")!)
/// // A hosted Supabase project: its auth URL and anon key.
/// let supabase = GoTrueBackend(url: URL(string: "https://xyz.supabase.co/auth/v1")!, apiKey: anonKey)
/// let auth = AuthService(backend: backend)
/// ```
///
/// Server errors become `AuthError` values with the server's code; transport failures become
/// `ErrorCode.networkUnavailable`; anything that is not the JSON the protocol promises
/// (HTML, a truncated or oversized body) becomes `ErrorCode.invalidResponse`. Idempotent
/// requests are retried once after a transport failure.
public struct GoTrueBackend: AuthBackend {
    /// Where the server is and how to talk to it.
    public struct Configuration: Sendable {
        /// The server's base URL (for Supabase: `https://<ref>.supabase.co/auth/v1`).
        public var url: URL
        /// The `apikey` header a Supabase gateway requires; Gatehouse servers need none.
        public var apiKey: String?
        /// The largest response body accepted.
        public var maximumResponseSize: Int
        /// Request timeout in seconds.
        public var timeout: TimeInterval
        /// The clock used to compute token expiry from `expires_in`.
        public var now: @Sendable () -> Date

        /// Creates a configuration.
        public init(
            url: URL,
            apiKey: String? = nil,
            maximumResponseSize: Int = 1 << 20,
            timeout: TimeInterval = 30,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.url = url
            self.apiKey = apiKey
            self.maximumResponseSize = maximumResponseSize
            self.timeout = timeout
            self.now = now
        }
    }

    let configuration: Configuration
    let client: GoTrueClient

    /// Creates a backend for the server at `url`.
    ///
    /// - Parameters:
    ///   - url: The server's base URL: a Gatehouse server's root, or a Supabase project's
    ///     `/auth/v1`.
    ///   - apiKey: The `apikey` header a Supabase gateway requires (the project's anon key);
    ///     `nil` for a Gatehouse server.
    ///   - session: The URL session; by default the process's one ephemeral session with no cache
    ///     (``HTTPTransport/cachelessSession``), shared by every backend, so no response (a user's
    ///     e-mail, metadata, tokens) is written to a disk cache.
    ///   - allowsCleartext: Allow an `http://` URL to a host that is not loopback (a server on a
    ///     trusted network); otherwise requests to it fail with `ErrorCode.insecureConnection`.
    public init(
        url: URL,
        apiKey: String? = nil,
        session: URLSession = HTTPTransport.cachelessSession,
        allowsCleartext: Bool = false
    ) {
        self.init(
            configuration: Configuration(url: url, apiKey: apiKey),
            transport: .urlSession(session, allowsCleartext: allowsCleartext)
        )
    }

    /// A new ephemeral URL session with no URL cache and no cookie storage. The default
    /// backend needs none: it shares ``HTTPTransport/cachelessSession``.
    public static func makeURLSession() -> URLSession {
        URLSession(configuration: urlSessionConfiguration())
    }

    /// The configuration of ``makeURLSession()`` (``HTTPTransport/cachelessConfiguration()``).
    public static func urlSessionConfiguration() -> URLSessionConfiguration {
        HTTPTransport.cachelessConfiguration()
    }

    /// The server's host (and port, when the URL names one), so that the default session store
    /// keeps sessions of different servers apart.
    public var sessionScope: String {
        let host = configuration.url.host ?? "server"
        return configuration.url.port.map { "\(host):\($0)" } ?? host
    }

    /// Creates a backend with full control over configuration and transport.
    public init(configuration: Configuration, transport: HTTPTransport) {
        self.configuration = configuration
        self.client = GoTrueClient(configuration: configuration, transport: transport)
    }

    public func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome {
        if let guest {
            let user: WireUser = try await client.send(
                .put,
                "user",
                body: UpdateUserRequest(email: email, password: password),
                bearer: guest.accessToken
            )
            if !user.isAnonymous {
                return .signedIn(try await refresh(guest))
            }
            return .confirmationRequired(User(wire: user))
        }
        let reply: SessionOrUser = try await client.send(
            .post,
            "signup",
            body: SignUpRequest(email: email, password: password, device: SignInDevice.name)
        )
        switch reply {
        case .session(let session): return .signedIn(Session(wire: session, receivedAt: configuration.now()))
        case .user(let user): return .confirmationRequired(User(wire: user))
        }
    }

    public func signIn(email: String, password: String) async throws -> Session {
        try await session(
            .post,
            "token",
            query: ["grant_type": "password"],
            body: PasswordGrantRequest(email: email, password: password, device: SignInDevice.name)
        )
    }

    public func signInAnonymously() async throws -> Session {
        try await session(.post, "signup", body: SignUpRequest(data: [:], device: SignInDevice.name))
    }

    public func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session {
        try await session(
            .post,
            "token",
            query: ["grant_type": "id_token"],
            body: Self.idTokenGrant(credential, linking: guest != nil, reauthenticationNonce: nil),
            bearer: guest?.accessToken
        )
    }

    /// The body of an ID-token sign-in, or of a link to the bearer's user (`link_identity`).
    static func idTokenGrant(
        _ credential: IDTokenCredential,
        linking: Bool,
        reauthenticationNonce: String?
    ) -> IDTokenGrantRequest {
        IDTokenGrantRequest(
            provider: credential.provider.rawValue,
            idToken: credential.idToken,
            nonce: credential.nonce,
            accessToken: credential.accessToken,
            linkIdentity: linking ? true : nil,
            device: SignInDevice.name,
            authorizationCode: credential.authorizationCode,
            fullName: credential.fullName.flatMap(WirePersonName.init),
            reauthenticationNonce: reauthenticationNonce
        )
    }

    public func sendMagicCode(to email: String) async throws {
        let _: EmptyReply = try await client.send(.post, "otp", body: OTPRequest(email: email, createUser: true))
    }

    public func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
        let reply: VerifyReply = try await client.send(
            .post,
            "verify",
            body: VerifyRequest(type: type, email: email, token: code, device: SignInDevice.name)
        )
        switch reply {
        case .session(let wire): return Session(wire: wire, receivedAt: configuration.now())
        case .otherAddressPending: throw AuthError.emailChangeConfirmationPending()
        }
    }

    public func verifyEmailChange(email: String, code: String) async throws -> EmailChangeVerification {
        do {
            return .completed(try await verifyCode(email: email, code: code, type: .emailChange))
        } catch let error as AuthError where error.code == .emailChangeConfirmationPending {
            return .otherAddressPending
        }
    }

    public func resetPassword(email: String) async throws {
        let _: EmptyReply = try await client.send(.post, "recover", body: RecoverRequest(email: email))
    }

    public func refresh(_ session: Session) async throws -> Session {
        try await self.session(
            .post,
            "token",
            query: ["grant_type": "refresh_token"],
            body: RefreshTokenGrantRequest(refreshToken: session.refreshToken)
        )
    }

    public func user(for session: Session) async throws -> User {
        let user: WireUser = try await client.send(.get, "user", bearer: session.accessToken, idempotent: true)
        return User(wire: user)
    }

    public func updateUser(_ changes: UserChanges, for session: Session) async throws -> User {
        let user: WireUser = try await client.send(
            .put,
            "user",
            body: UpdateUserRequest(
                email: changes.email,
                password: changes.password,
                currentPassword: changes.currentPassword,
                nonce: changes.nonce,
                data: changes.data
            ),
            bearer: session.accessToken
        )
        return User(wire: user)
    }

    public func deleteAccount(_ session: Session) async throws {
        try await deleteAccount(session, nonce: nil)
    }

    /// `DELETE /user`, with `{"nonce": …}` when a reauthentication code is given.
    public func deleteAccount(_ session: Session, nonce: String?) async throws {
        let _: EmptyReply = try await client.send(
            .delete,
            "user",
            body: Self.proof(nonce),
            bearer: session.accessToken
        )
    }

    /// `GET /reauthenticate`: the server mails a code to the user's confirmed address. Never
    /// retried (a second request within the send spacing is refused).
    public func reauthenticate(for session: Session) async throws {
        let _: EmptyReply = try await client.send(.get, "reauthenticate", bearer: session.accessToken)
    }

    /// `POST /token?grant_type=id_token` with `link_identity: true` and the caller's bearer; the
    /// reauthentication code goes as `reauthentication_nonce` (`nonce` is the ID token's).
    public func linkIdentity(
        _ credential: IDTokenCredential,
        nonce: String?,
        for session: Session
    ) async throws -> Session {
        try await self.session(
            .post,
            "token",
            query: ["grant_type": "id_token"],
            body: Self.idTokenGrant(credential, linking: true, reauthenticationNonce: nonce),
            bearer: session.accessToken
        )
    }

    public func signOut(_ session: Session, scope: LogoutScope) async throws {
        try await signOut(session, scope: scope, nonce: nil)
    }

    /// `POST /logout?scope=…`, with `{"nonce": …}` when a reauthentication code is given. An
    /// answer that the session is gone (401, 403, 404) is what `local` and `global` want; for
    /// `others` it is thrown, since nothing was ended. A request carrying a code is not retried
    /// (a lost answer's code is spent).
    public func signOut(_ session: Session, scope: LogoutScope, nonce: String?) async throws {
        do {
            let _: EmptyReply = try await client.send(
                .post,
                "logout",
                query: ["scope": scope.rawValue],
                body: Self.proof(nonce),
                bearer: session.accessToken,
                idempotent: nonce == nil
            )
        } catch let error as AuthError where scope != .others && [401, 403, 404].contains(error.httpStatus) {
            // The session is already gone on the server: that is what signing out wants.
        }
    }

    /// The body that carries a reauthentication code (`{"nonce": …}`), or none without one, so
    /// that a request without a code is sent as before.
    static func proof(_ nonce: String?) -> (any Encodable & Sendable)? {
        guard let nonce else { return nil }
        return ReauthenticationProofRequest(nonce: nonce)
    }

    private func session<Body: Encodable & Sendable>(
        _ method: GoTrueClient.Method,
        _ path: String,
        query: [String: String] = [:],
        body: Body,
        bearer: String? = nil
    ) async throws -> Session {
        let wire: WireSession = try await client.send(method, path, query: query, body: body, bearer: bearer)
        return Session(wire: wire, receivedAt: configuration.now())
    }
}
