public import Foundation

/// One place the user is signed in, as ``AuthService/sessions()`` lists it.
///
/// ```swift
/// for device in try await auth.sessions() where !device.isCurrent {
///     print(device.device ?? "Unknown device", device.refreshedAt)
/// }
/// ```
public struct DeviceSession: Sendable, Equatable, Identifiable, Codable {
    /// The session's id, for ``AuthService/endSession(id:nonce:)``.
    public var id: UUID
    /// The label the device sent at sign-in (``AuthService/Configuration/deviceName``, or its
    /// client's name); `nil` when it sent none.
    public var device: String?
    /// When the session signed in.
    public var createdAt: Date
    /// When it last refreshed its tokens (its sign-in when it never did).
    public var refreshedAt: Date
    /// The address it last connected from, as the server saw it.
    public var ip: String?
    /// The assurance level: `aal1`, or `aal2` after a second factor.
    public var aal: String
    /// How it signed in (`password`, `otp`, `oauth`, `anonymous`, …), newest first.
    public var methods: [String]
    /// Whether this is this device's own session.
    public var isCurrent: Bool

    /// Creates a session description.
    public init(
        id: UUID,
        device: String?,
        createdAt: Date,
        refreshedAt: Date,
        ip: String?,
        aal: String = "aal1",
        methods: [String],
        isCurrent: Bool
    ) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.refreshedAt = refreshedAt
        self.ip = ip
        self.aal = aal
        self.methods = methods
        self.isCurrent = isCurrent
    }

    /// Creates a session description from the server's answer.
    public init(wire: WireDeviceSession) {
        self.init(
            id: wire.id,
            device: wire.device,
            createdAt: wire.createdAt,
            refreshedAt: wire.refreshedAt,
            ip: wire.ip,
            aal: wire.aal,
            methods: wire.amr.map(\.method),
            isCurrent: wire.current
        )
    }
}

/// Which session ``AuthBackend/endSession(id:nonce:for:)`` ended.
public enum EndedSession: Sendable, Equatable {
    /// The session of the tokens that asked: this device is signed out too.
    case current
    /// Another of the user's sessions.
    case other
}
