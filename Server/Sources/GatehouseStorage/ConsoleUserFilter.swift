public import Foundation
import GatehouseServerSupport

/// Which users the console's list shows (`/console/users?filter=…`).
public enum ConsoleUserFilter: String, Sendable, CaseIterable {
    /// Users with an address they confirmed.
    case confirmed
    /// Users with an address they have not confirmed yet.
    case unconfirmed
    /// Anonymous users (guests), not yet upgraded.
    case guest
    /// Users banned at the time of the listing.
    case banned
    /// Users with a verified second factor.
    case mfa
    /// Users with at least one passkey.
    case passkeys
    /// Users with an identity of a given provider (``ConsoleUserQuery/provider``).
    case provider
}

/// Where a filtered listing of users stands: after which user (by creation time, then id), the
/// order of the `users_created_at` index.
public struct ConsoleUserCursor: Sendable, Equatable {
    /// The creation time of the last user looked at.
    public var createdAt: Date
    /// Its id.
    public var id: UUID

    /// A cursor after the user created at `createdAt` with `id`.
    public init(createdAt: Date, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The cursor as a link carries it: the creation time's seconds, `_`, the id.
    public var text: String { "\(createdAt.timeIntervalSince1970)_\(id.key)" }

    /// The cursor a link carried, or `nil` when the text is not one.
    public init?(text: String) {
        let parts = text.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, let seconds = Double(parts[0]), seconds.isFinite, let id = UUID(text: String(parts[1]))
        else { return nil }
        self.init(createdAt: Date(timeIntervalSince1970: seconds), id: id)
    }
}

/// One page of a filtered listing of users.
///
/// A filter is not an index: the listing walks the creation-time index from the cursor and
/// looks at no more than ``ConsoleUserQuery/examined`` users, so a rare filter over a million
/// users costs one bounded step per page, never a scan, and the page says where to go on.
public struct ConsoleUserQuery: Sendable, Equatable {
    /// The filter.
    public var filter: ConsoleUserFilter
    /// The provider, for ``ConsoleUserFilter/provider`` (`google`, `apple`, `email`, …).
    public var provider: AuthProvider?
    /// Start after this user; `nil` for the first page.
    public var after: ConsoleUserCursor?
    /// The most users a page holds.
    public var limit: Int
    /// The most users one page looks at.
    public var examined: Int
    /// The time "banned" is judged at.
    public var now: Date

    /// A query of one page.
    public init(
        filter: ConsoleUserFilter,
        provider: AuthProvider? = nil,
        after: ConsoleUserCursor? = nil,
        limit: Int = 50,
        examined: Int = 2_000,
        now: Date
    ) {
        self.filter = filter
        self.provider = provider
        self.after = after
        self.limit = limit
        self.examined = examined
        self.now = now
    }
}

/// What a page of a filtered listing found, and where the next page starts.
public struct ConsoleUserPage: Sendable {
    /// The users that match, by creation time.
    public var users: [UserRecord]
    /// Where the next page starts; `nil` when every user has been looked at.
    public var next: ConsoleUserCursor?
}
