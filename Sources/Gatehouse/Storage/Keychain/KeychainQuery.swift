public import Foundation

/// The item a keychain call addresses: a generic password by service and account.
///
/// `accessGroup == nil` follows the keychain's own rule: a query matches the item in any group
/// the app can read, and an add puts the item in the app's default group. ``KeychainSessionStore``
/// names the group in every query once it knows it.
public struct KeychainQuery: Sendable, Hashable {
    /// The item's service (`kSecAttrService`).
    public var service: String
    /// The item's account (`kSecAttrAccount`).
    public var account: String
    /// The access group (`kSecAttrAccessGroup`), or `nil` for "any" (queries) or "the default" (adds).
    public var accessGroup: String?

    /// Creates a query.
    public init(service: String, account: String, accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    /// The same item in another access group.
    public func inGroup(_ group: String?) -> KeychainQuery {
        KeychainQuery(service: service, account: account, accessGroup: group)
    }
}

/// An item a keychain read found: its data and the access group it lives in.
public struct KeychainItem: Sendable, Hashable {
    /// The item's data (`kSecValueData`).
    public var data: Data
    /// The access group the item lives in.
    public var accessGroup: String

    /// Creates an item.
    public init(data: Data, accessGroup: String) {
        self.data = data
        self.accessGroup = accessGroup
    }
}
