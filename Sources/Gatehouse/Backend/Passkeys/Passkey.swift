public import Foundation
public import GatehouseCore

/// One of the user's passkeys (never its key).
public struct Passkey: Sendable, Equatable, Identifiable {
    public var id: UUID
    /// The name the user gave it, if any.
    public var name: String?
    /// When the passkey was registered.
    public var createdAt: Date
    /// When the passkey last signed in; `nil` when it never did.
    public var lastUsedAt: Date?

    /// Creates a passkey entry.
    public init(id: UUID, name: String?, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The passkey the server listed.
    public init(_ wire: WirePasskey) {
        self.init(id: wire.id, name: wire.friendlyName, createdAt: wire.createdAt, lastUsedAt: wire.lastUsedAt)
    }
}
