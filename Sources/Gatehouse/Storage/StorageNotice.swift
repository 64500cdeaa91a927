/// Something a session store wants the app to know that is not the failure of one call: the
/// store keeps working, but not as configured.
///
/// ``AuthService`` collects notices after every store call (``SessionStore/takeNotices()``),
/// logs them and publishes ``AuthEvent/storageFallback(_:)``.
public enum StorageNotice: Sendable, Equatable {
    /// The store could not use its primary location (for example the keychain refused with
    /// ``ErrorCode/missingEntitlement``) and keeps the session in its fallback instead.
    case fellBack(AuthError)
}
