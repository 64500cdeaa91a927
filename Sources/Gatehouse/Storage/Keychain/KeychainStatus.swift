/// What a keychain call answered, in the few outcomes ``KeychainSessionStore`` tells apart.
///
/// The raw numbers are Security framework `OSStatus` values, so the mapping is the same on
/// every platform and a simulated keychain can answer exactly what a device would.
public enum KeychainStatus: Sendable, Hashable {
    /// `errSecSuccess`.
    case success
    /// `errSecItemNotFound`: no matching item, or, before the device's first unlock, possibly
    /// an item that exists but cannot be seen yet.
    case itemNotFound
    /// `errSecDuplicateItem`.
    case duplicateItem
    /// `errSecInteractionNotAllowed`: the keychain is locked (before first unlock).
    case interactionNotAllowed
    /// `errSecMissingEntitlement`: the app is not signed with a keychain entitlement.
    case missingEntitlement
    /// Any other `OSStatus`.
    case other(Int32)

    /// The status for an `OSStatus` value.
    public init(osStatus: Int32) {
        switch osStatus {
        case 0: self = .success
        case -25300: self = .itemNotFound
        case -25299: self = .duplicateItem
        case -25308: self = .interactionNotAllowed
        case -34018: self = .missingEntitlement
        default: self = .other(osStatus)
        }
    }

    /// The `OSStatus` value.
    public var osStatus: Int32 {
        switch self {
        case .success: return 0
        case .itemNotFound: return -25300
        case .duplicateItem: return -25299
        case .interactionNotAllowed: return -25308
        case .missingEntitlement: return -34018
        case .other(let value): return value
        }
    }
}
