// Apple-only call sites in this file: KeychainClient.live (Security framework, in
// KeychainClient+Security.swift) in the convenience initialisers at the end.
public import Foundation

extension KeychainSessionStore {
    /// The store ``AuthService`` uses by default on Apple platforms, given its keychain calls.
    ///
    /// - The item's service names the app and the server
    ///   (``defaultService(bundleIdentifier:scope:)``), so apps of one team, and staging and
    ///   production, never share a session.
    /// - The item of earlier releases (service `gatehouse`, account `session`, in the app's
    ///   default group) is moved here on first read, so updating the SDK signs nobody out.
    /// - On macOS (and Mac Catalyst), an app without a keychain entitlement (no provisioning
    ///   profile) keeps the session in a 0600 file in Application Support
    ///   (`<bundle id>/gatehouse-session-<scope>.json`) and says so once. On iOS, tvOS, watchOS
    ///   and visionOS the same refusal means a misconfigured access group: it is an error
    ///   (``ErrorCode/missingEntitlement``), never a session of its own in a file.
    ///
    /// - Parameters:
    ///   - scope: The backend's ``AuthBackend/sessionScope`` (the server's host).
    ///   - accessGroup: An access group shared with the app's extensions, or `nil`.
    ///   - accessibility: When the item can be read.
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - fallbackDirectory: Where the fallback file goes; defaults to Application Support.
    ///   - fallsBackToFileWithoutEntitlement: Whether a missing entitlement moves the session to
    ///     the file (``fallsBackToFileByDefault``: on macOS only).
    ///   - stopsDebugBuildsOnMissingEntitlement: Whether a debug build stops when the missing
    ///     entitlement is an error.
    ///   - refreshLockURL: A lock file in the App Group container shared with extensions, or `nil`.
    ///   - developerAlarm: What stopping a debug build means.
    ///   - client: The keychain calls.
    public static func standard(
        scope: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        bundleIdentifier: String? = Bundle.main.bundleIdentifier,
        fallbackDirectory: URL? = nil,
        fallsBackToFileWithoutEntitlement: Bool = KeychainSessionStore.fallsBackToFileByDefault,
        stopsDebugBuildsOnMissingEntitlement: Bool = true,
        refreshLockURL: URL? = nil,
        developerAlarm: DeveloperAlarm = .standard,
        client: KeychainClient
    ) -> KeychainSessionStore {
        let directory =
            fallbackDirectory
            ?? FileSessionStore.applicationSupportDirectory(namespace: bundleIdentifier ?? "gatehouse")
        let safeScope = String(scope.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        return KeychainSessionStore(
            service: defaultService(bundleIdentifier: bundleIdentifier, scope: scope),
            accessGroup: accessGroup,
            accessibility: accessibility,
            migratingFrom: [KeychainQuery(service: "gatehouse", account: "session")],
            fallback: fallsBackToFileWithoutEntitlement
                ? FileSessionStore(fileURL: directory.appendingPathComponent("gatehouse-session-\(safeScope).json"))
                : nil,
            stopsDebugBuildsOnMissingEntitlement: stopsDebugBuildsOnMissingEntitlement,
            refreshLockURL: refreshLockURL,
            developerAlarm: developerAlarm,
            client: client
        )
    }

    /// Whether a missing keychain entitlement keeps the session in a file by default: on macOS
    /// and Mac Catalyst, where it means an app without a provisioning profile; not on iOS,
    /// tvOS, watchOS and visionOS, where it means a misconfigured access group.
    public static var fallsBackToFileByDefault: Bool {
        #if os(macOS) || targetEnvironment(macCatalyst)
        return true
        #else
        return false
        #endif
    }
}

#if canImport(Security)
extension KeychainSessionStore {
    /// Creates a store for one item in this device's keychain.
    public init(
        service: String,
        account: String = "session",
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        migratingFrom: [KeychainQuery] = [],
        fallback: (any SessionStore)? = nil,
        refreshLockURL: URL? = nil
    ) {
        self.init(
            service: service,
            account: account,
            accessGroup: accessGroup,
            accessibility: accessibility,
            migratingFrom: migratingFrom,
            fallback: fallback,
            refreshLockURL: refreshLockURL,
            client: .live
        )
    }

    /// The default store on this device's keychain (see
    /// ``standard(scope:accessGroup:accessibility:bundleIdentifier:fallbackDirectory:fallsBackToFileWithoutEntitlement:stopsDebugBuildsOnMissingEntitlement:refreshLockURL:developerAlarm:client:)``).
    public static func standard(
        scope: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        refreshLockURL: URL? = nil
    ) -> KeychainSessionStore {
        standard(
            scope: scope,
            accessGroup: accessGroup,
            accessibility: accessibility,
            refreshLockURL: refreshLockURL,
            client: .live
        )
    }
}
#endif
