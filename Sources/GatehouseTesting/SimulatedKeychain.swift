public import Foundation
public import Gatehouse

/// A keychain in memory that behaves like a device's, for testing `KeychainSessionStore` and
/// the apps built on it anywhere, Linux included: it can be locked before the first unlock
/// (and then answer "not found" for items that exist, as devices do), refuse every call for a
/// missing entitlement, hold items in several access groups, and fail chosen calls.
///
/// ```swift
/// let keychain = SimulatedKeychain()
/// let store = KeychainSessionStore(service: "app", client: keychain.client)
/// keychain.lockBeforeFirstUnlock()          // a background launch after a reboot
/// #expect(throws: AuthError.self) { try store.load() }   // storage_locked, not "signed out"
/// ```
public final class SimulatedKeychain: Sendable {
    /// One of the four keychain calls.
    public enum Operation: String, Sendable, Hashable {
        /// `SecItemCopyMatching`: a read.
        case copyMatching
        /// `SecItemAdd`.
        case add
        /// `SecItemUpdate`.
        case update
        /// `SecItemDelete`.
        case delete
    }

    /// An item as the keychain holds it.
    public struct StoredItem: Sendable, Hashable {
        /// The item's service (`kSecAttrService`).
        public var service: String
        /// The item's account (`kSecAttrAccount`).
        public var account: String
        /// The access group the item lives in.
        public var accessGroup: String
        /// The item's secret data.
        public var data: Data
        /// When the item can be read.
        public var accessibility: KeychainAccessibility

        /// Creates an item.
        public init(
            service: String,
            account: String,
            accessGroup: String,
            data: Data,
            accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly
        ) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            self.data = data
            self.accessibility = accessibility
        }
    }

    /// One call the keychain received.
    public struct Call: Sendable, Hashable {
        /// Which call it was.
        public var operation: Operation
        /// The query the call was made with.
        public var query: KeychainQuery
    }

    private struct State {
        var items: [StoredItem] = []
        var lockedBeforeFirstUnlock = false
        var answersNotFoundWhileLocked = true
        var entitled = true
        var failures: [Operation: KeychainStatus] = [:]
        var calls: [Call] = []
    }

    /// The group items go to when an add names none.
    public let defaultGroup: String
    /// Every group the app is entitled to.
    public let groups: [String]
    private let state = Locked(State())

    /// Creates an empty keychain.
    ///
    /// - Parameters:
    ///   - defaultGroup: The app's default access group.
    ///   - sharedGroups: Other groups the app is entitled to (App Groups, keychain sharing).
    public init(defaultGroup: String = "TEAMID.com.example.app", sharedGroups: [String] = []) {
        self.defaultGroup = defaultGroup
        self.groups = [defaultGroup] + sharedGroups
    }

    /// The device restarted and has not been unlocked: no item can be read or written, and
    /// reads answer "not found" (`answeringNotFound`, as devices may) or "interaction not allowed".
    public func lockBeforeFirstUnlock(answeringNotFound: Bool = true) {
        state.withLock {
            $0.lockedBeforeFirstUnlock = true
            $0.answersNotFoundWhileLocked = answeringNotFound
        }
    }

    /// The device was unlocked.
    public func unlock() {
        state.withLock { $0.lockedBeforeFirstUnlock = false }
    }

    /// Whether the app is signed with a keychain entitlement; without one every call answers
    /// `errSecMissingEntitlement`.
    public func setEntitled(_ entitled: Bool) {
        state.withLock { $0.entitled = entitled }
    }

    /// Makes every later `operation` answer `status` (`nil` restores normal behaviour).
    public func fail(_ operation: Operation, with status: KeychainStatus?) {
        state.withLock { $0.failures[operation] = status }
    }

    /// Puts an item in place directly, as an earlier release or another app would have.
    public func insert(_ item: StoredItem) {
        state.withLock { $0.items.append(item) }
    }

    /// The items held.
    public var items: [StoredItem] { state.withLock { $0.items } }

    /// The calls received, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The calls a `KeychainSessionStore` makes, answered by this keychain.
    public var client: KeychainClient {
        KeychainClient(
            copyMatching: { query in self.perform(.copyMatching, query) { $0.copy(query) } },
            add: { query, data, accessibility in
                self.perform(.add, query, refused: { ($0, nil) }) { $0.add(query, data, accessibility, self) }
            },
            update: { query, data, accessibility in
                self.perform(.update, query, refused: { $0 }) { $0.update(query, data, accessibility) }
            },
            delete: { query in self.perform(.delete, query, refused: { $0 }) { $0.delete(query) } }
        )
    }

    private func perform(
        _ operation: Operation,
        _ query: KeychainQuery,
        _ body: (inout Contents) -> (status: KeychainStatus, item: KeychainItem?)
    ) -> (status: KeychainStatus, item: KeychainItem?) {
        perform(operation, query, refused: { ($0, nil) }, body)
    }

    private func perform<Answer>(
        _ operation: Operation,
        _ query: KeychainQuery,
        refused: (KeychainStatus) -> Answer,
        _ body: (inout Contents) -> Answer
    ) -> Answer {
        state.withLock { state in
            state.calls.append(Call(operation: operation, query: query))
            if !state.entitled { return refused(.missingEntitlement) }
            if let failure = state.failures[operation] { return refused(failure) }
            if state.lockedBeforeFirstUnlock {
                let notFound = operation == .copyMatching && state.answersNotFoundWhileLocked
                return refused(notFound ? .itemNotFound : .interactionNotAllowed)
            }
            var contents = Contents(items: state.items, groups: groups)
            let answer = body(&contents)
            state.items = contents.items
            return answer
        }
    }
}

/// The items of a ``SimulatedKeychain`` and the keychain's matching rules.
private struct Contents {
    var items: [SimulatedKeychain.StoredItem]
    let groups: [String]

    private func matches(_ item: SimulatedKeychain.StoredItem, _ query: KeychainQuery) -> Bool {
        item.service == query.service && item.account == query.account
            && (query.accessGroup.map { $0 == item.accessGroup } ?? groups.contains(item.accessGroup))
    }

    func copy(_ query: KeychainQuery) -> (status: KeychainStatus, item: KeychainItem?) {
        let found = items.filter { matches($0, query) }.sorted { $0.accessGroup < $1.accessGroup }.first
        guard let found else { return (.itemNotFound, nil) }
        return (.success, KeychainItem(data: found.data, accessGroup: found.accessGroup))
    }

    mutating func add(
        _ query: KeychainQuery,
        _ data: Data,
        _ accessibility: KeychainAccessibility,
        _ keychain: SimulatedKeychain
    ) -> (status: KeychainStatus, accessGroup: String?) {
        let group = query.accessGroup ?? keychain.defaultGroup
        guard groups.contains(group) else { return (.missingEntitlement, nil) }
        let item = SimulatedKeychain.StoredItem(
            service: query.service,
            account: query.account,
            accessGroup: group,
            data: data,
            accessibility: accessibility
        )
        if items.contains(where: { matches($0, query.inGroup(group)) }) { return (.duplicateItem, nil) }
        items.append(item)
        return (.success, group)
    }

    mutating func update(_ query: KeychainQuery, _ data: Data, _ accessibility: KeychainAccessibility) -> KeychainStatus
    {
        var found = false
        for index in items.indices where matches(items[index], query) {
            items[index].data = data
            items[index].accessibility = accessibility
            found = true
        }
        return found ? .success : .itemNotFound
    }

    mutating func delete(_ query: KeychainQuery) -> KeychainStatus {
        let kept = items.filter { !matches($0, query) }
        defer { items = kept }
        return kept.count < items.count ? .success : .itemNotFound
    }
}
