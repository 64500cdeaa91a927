// The keychain calls and constants the SDK uses: Security/SecItem.h and Security/SecBase.h
// (https://developer.apple.com/documentation/security/keychain_services). All are available on
// every platform the package declares, since iOS 2/macOS 10.6 (kSecUseDataProtectionKeychain:
// iOS 13, macOS 10.15) — below the deployment targets.
// Imported C functions have discardable results; `extern const CFStringRef` constants are imported
// as read-only globals (declared computed here, so the stand-in needs no concurrency exemption).
// CFString and CFDictionary are the Foundation stand-in's typealiases (README, compromises).
@_exported import Foundation

// Security/SecItem.h
@discardableResult public func SecItemCopyMatching(
    _ query: CFDictionary,
    _ result: UnsafeMutablePointer<CFTypeRef?>?
) -> OSStatus {
    fatalError()
}
@discardableResult public func SecItemAdd(
    _ attributes: CFDictionary,
    _ result: UnsafeMutablePointer<CFTypeRef?>?
) -> OSStatus {
    fatalError()
}
@discardableResult public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError()
}
@discardableResult public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError() }

// Security/SecItem.h: item class, attribute, search, return and value keys
public var kSecClass: CFString { fatalError() }
public var kSecClassGenericPassword: CFString { fatalError() }
public var kSecAttrService: CFString { fatalError() }
public var kSecAttrAccount: CFString { fatalError() }
public var kSecAttrAccessGroup: CFString { fatalError() }
public var kSecAttrAccessible: CFString { fatalError() }
public var kSecAttrAccessibleWhenUnlocked: CFString { fatalError() }
public var kSecAttrAccessibleAfterFirstUnlock: CFString { fatalError() }
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { fatalError() }
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { fatalError() }
public var kSecMatchLimit: CFString { fatalError() }
public var kSecMatchLimitOne: CFString { fatalError() }
public var kSecReturnData: CFString { fatalError() }
public var kSecReturnAttributes: CFString { fatalError() }
public var kSecValueData: CFString { fatalError() }
public var kSecUseDataProtectionKeychain: CFString { fatalError() }

// Security/SecBase.h: the result codes the SDK's KeychainStatus mirrors by number
// (Sources/Gatehouse/Storage/Keychain/KeychainStatus.swift), imported as read-only OSStatus globals.
public var errSecSuccess: OSStatus { 0 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecDecode: OSStatus { -26275 }
public var errSecMissingEntitlement: OSStatus { -34018 }
