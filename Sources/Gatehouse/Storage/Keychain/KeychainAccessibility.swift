/// When a keychain item can be read (`kSecAttrAccessible`).
///
/// The session must be readable by background work (refresh at a silent push, a background
/// task), so only the "after first unlock" classes suit it unless an app never works in the
/// background. The `ThisDeviceOnly` classes keep the refresh token out of backups restored onto
/// another device.
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
    /// `kSecAttrAccessibleAfterFirstUnlock`: readable from the first unlock after boot; may
    /// move to a new device through an encrypted backup.
    case afterFirstUnlock
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable from the first unlock after
    /// boot; never leaves this device. The default.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlocked`: readable only while the device is unlocked.
    case whenUnlocked
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: readable only while unlocked; never
    /// leaves this device.
    case whenUnlockedThisDeviceOnly

    /// Whether an item of this class can be read while the device is locked after its first unlock.
    public var isReadableWhileLocked: Bool {
        self == .afterFirstUnlock || self == .afterFirstUnlockThisDeviceOnly
    }
}
