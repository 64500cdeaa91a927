// Apple-only call sites in this file (Security framework, every Apple platform):
// SecItemCopyMatching, SecItemAdd, SecItemUpdate, SecItemDelete, and the kSec* attribute keys
// and kSecAttrAccessible* values. Everything else the keychain store does is in
// KeychainSessionStore*.swift, which builds and is tested on Linux.
#if canImport(Security)
import Foundation
import Security

extension KeychainClient {
    /// The keychain of this device, through the data-protection keychain on macOS too.
    public static let live = KeychainClient(
        copyMatching: { query in
            var attributes = query.secAttributes
            attributes[kSecReturnData as String] = true
            attributes[kSecReturnAttributes as String] = true
            attributes[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = KeychainStatus(osStatus: SecItemCopyMatching(attributes as CFDictionary, &result))
            guard status == .success else { return (status, nil) }
            guard let found = result as? [String: Any], let data = found[kSecValueData as String] as? Data else {
                return (.other(errSecDecode), nil)
            }
            return (
                .success, KeychainItem(data: data, accessGroup: found[kSecAttrAccessGroup as String] as? String ?? "")
            )
        },
        add: { query, data, accessibility in
            var attributes = query.secAttributes
            attributes[kSecValueData as String] = data
            attributes[kSecAttrAccessible as String] = accessibility.secValue
            attributes[kSecReturnAttributes as String] = true
            var result: CFTypeRef?
            let status = KeychainStatus(osStatus: SecItemAdd(attributes as CFDictionary, &result))
            let group = (result as? [String: Any])?[kSecAttrAccessGroup as String] as? String
            return (status, group ?? query.accessGroup)
        },
        update: { query, data, accessibility in
            let changes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: accessibility.secValue,
            ]
            return KeychainStatus(osStatus: SecItemUpdate(query.secAttributes as CFDictionary, changes as CFDictionary))
        },
        delete: { query in
            KeychainStatus(osStatus: SecItemDelete(query.secAttributes as CFDictionary))
        }
    )
}

extension KeychainQuery {
    fileprivate var secAttributes: [String: Any] {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { attributes[kSecAttrAccessGroup as String] = accessGroup }
        return attributes
    }
}

extension KeychainAccessibility {
    fileprivate var secValue: CFString {
        switch self {
        case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        case .afterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
        case .whenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        }
    }
}
#endif
