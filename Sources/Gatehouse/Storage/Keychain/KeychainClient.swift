public import Foundation

/// The four keychain calls ``KeychainSessionStore`` makes, as closures: the seam between its
/// logic (probing, fallback, migration, access groups, error mapping), which is tested on every
/// platform, and Apple's `SecItem*` functions (`live`, Apple platforms only).
///
/// ```swift
/// // In a test (GatehouseTesting): a keychain that is locked before the first unlock.
/// let keychain = SimulatedKeychain()
/// keychain.lockBeforeFirstUnlock(answeringNotFound: true)
/// let store = KeychainSessionStore(service: "app", client: keychain.client)
/// ```
public struct KeychainClient: Sendable {
    /// `SecItemCopyMatching` for one item, returning its data and access group.
    public var copyMatching: @Sendable (KeychainQuery) -> (status: KeychainStatus, item: KeychainItem?)
    /// `SecItemAdd`; returns the access group the item was added to (the default group when
    /// the query names none).
    public var add:
        @Sendable (KeychainQuery, Data, KeychainAccessibility) -> (status: KeychainStatus, accessGroup: String?)
    /// `SecItemUpdate` of the item's data and accessibility.
    public var update: @Sendable (KeychainQuery, Data, KeychainAccessibility) -> KeychainStatus
    /// `SecItemDelete`.
    public var delete: @Sendable (KeychainQuery) -> KeychainStatus

    /// Creates a client from its four calls.
    public init(
        copyMatching: @escaping @Sendable (KeychainQuery) -> (status: KeychainStatus, item: KeychainItem?),
        add:
            @escaping @Sendable (KeychainQuery, Data, KeychainAccessibility) -> (
                status: KeychainStatus, accessGroup: String?
            ),
        update: @escaping @Sendable (KeychainQuery, Data, KeychainAccessibility) -> KeychainStatus,
        delete: @escaping @Sendable (KeychainQuery) -> KeychainStatus
    ) {
        self.copyMatching = copyMatching
        self.add = add
        self.update = update
        self.delete = delete
    }
}
