#if canImport(Security)
public import Foundation
import Security

/// A session store in the Apple keychain: one generic-password item, readable after the
/// device's first unlock, never synced or restored onto another device.
///
/// The default store on Apple platforms. Query attributes are frozen per release; changing
/// them needs a migration that reads the old item before deleting it. The item is a
/// data-protection keychain item on macOS too (no legacy keychain prompt).
///
/// Errors keep "nothing stored" apart from "locked" (``ErrorCode/storageLocked``, before first
/// unlock), "missing entitlement" (``ErrorCode/missingEntitlement``) and other failures, so a
/// locked keychain never looks like a signed-out user.
public struct KeychainSessionStore: SessionStore {
    /// The item's service attribute.
    public let service: String
    /// The item's account attribute.
    public let account: String
    /// The keychain access group shared with app extensions, if any.
    public let accessGroup: String?

    /// Creates a store for one item.
    public init(service: String = "gatehouse", account: String = "session", accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    private var baseQuery: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func load() throws -> Session? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.error(for: status) }
        do {
            return try StoredSessionFile.decode(data)
        } catch {
            throw AuthError.storageCorrupt(location: "keychain item \(service)/\(account)", underlying: "\(error)")
        }
    }

    public func save(_ session: Session) throws {
        let data = try StoredSessionFile.encode(session)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let query = baseQuery.merging(attributes) { _, new in new }
            status = SecItemAdd(query as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Self.error(for: status) }
    }

    public func delete() throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.error(for: status) }
    }

    private static func error(for status: OSStatus) -> AuthError {
        switch status {
        case errSecInteractionNotAllowed:
            return .storageLocked()
        case errSecMissingEntitlement:
            return AuthError(
                code: .missingEntitlement,
                message: "The app is not entitled to use the keychain (OSStatus \(status)).",
                recoverySuggestion: "Sign the app (tests need a host app) and check the keychain access group."
            )
        default:
            let text = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return .storageFailure(text)
        }
    }
}
#endif
