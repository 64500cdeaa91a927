public import Foundation

/// One of a user's sessions as `GET /user/sessions` and `GET /admin/users/{id}/sessions` list it:
/// where and when it signed in, and whether it is the caller's own.
public struct WireDeviceSession: Codable, Sendable, Equatable, Identifiable {
    /// The session's id (the `session_id` claim of its access tokens).
    public var id: UUID
    /// The device label the client sent at sign-in (a `device` field, `X-Client-Info` or its
    /// `User-Agent`), shortened and cleaned by the server; `nil` when it sent none.
    public var device: String?
    /// When the session signed in.
    public var createdAt: Date
    /// When the session last refreshed its tokens (its sign-in when it never did).
    public var refreshedAt: Date
    /// The client address the session last refreshed from (else signed in from).
    public var ip: String?
    /// The address the session signed in from.
    public var createdIP: String?
    /// The authenticator assurance level, `aal1` or `aal2`.
    public var aal: String
    /// How the session authenticated, newest first.
    public var amr: [WireAuthenticationMethod]
    /// Whether this is the session of the token that asked (always `false` for the admin API).
    public var current: Bool

    /// Creates a session entry as the list shows it.
    public init(
        id: UUID,
        device: String?,
        createdAt: Date,
        refreshedAt: Date,
        ip: String?,
        createdIP: String? = nil,
        aal: String,
        amr: [WireAuthenticationMethod],
        current: Bool
    ) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.refreshedAt = refreshedAt
        self.ip = ip
        self.createdIP = createdIP
        self.aal = aal
        self.amr = amr
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, device, ip, aal, amr, current
        case createdAt = "created_at"
        case refreshedAt = "refreshed_at"
        case createdIP = "created_ip"
    }
}

/// One authentication method of a session: `password`, `otp`, `oauth`, `anonymous`, … and when
/// (Unix seconds), as in the `amr` claim.
public struct WireAuthenticationMethod: Codable, Sendable, Equatable {
    /// The method (`password`, `otp`, `totp`, `passkey`, …).
    public var method: String
    /// When the session authenticated this way, in Unix seconds.
    public var timestamp: Int

    /// Creates a method entry.
    public init(method: String, timestamp: Int) {
        self.method = method
        self.timestamp = timestamp
    }
}

/// The body of `GET /user/sessions` and `GET /admin/users/{id}/sessions`: newest first.
public struct WireDeviceSessionList: Codable, Sendable, Equatable {
    /// The user's sessions, newest first, without ended ones.
    public var sessions: [WireDeviceSession]

    /// Creates the list.
    public init(sessions: [WireDeviceSession]) {
        self.sessions = sessions
    }
}
