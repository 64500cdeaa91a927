public import Foundation

/// A session store in the keychain: one generic-password item, readable after the device's
/// first unlock (configurable), named by service, account and access group.
///
/// The default store on Apple platforms. Its logic runs over a ``KeychainClient`` (the device's
/// keychain, `KeychainClient.live`, or a simulated one in tests), so every rule below is
/// tested on Linux:
/// - **A locked keychain is never "signed out".** Before the first call of a process the store
///   proves the keychain readable by writing and removing a probe item in the same access group
///   with `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`. Refused as not allowed means
///   locked (before first unlock, the keychain can answer "not found" for an item that
///   exists): every call then throws ``ErrorCode/storageLocked`` until the probe passes.
/// - **Queries always name the access group in use.** The probe tells the app's default group
///   when none is configured.
/// - **Moving the item migrates it.** When nothing is at the configured place, the store looks
///   at each of ``migrationSources`` (the same item in the default group when an access group
///   is configured, the item names of earlier releases), then at the fallback store, moves
///   what it finds and removes the old copy.
/// - **No entitlement: a file on macOS, an error elsewhere.** On macOS
///   ``ErrorCode/missingEntitlement`` means an app without a provisioning profile (a new
///   project's first run, `swift run`, unit tests without a host app): the store keeps the
///   session in ``fallback`` for the rest of the process and reports it once as a
///   ``StorageNotice`` (which ``AuthService`` logs as a warning). On iOS, tvOS, watchOS and
///   visionOS it means an access group the app is not entitled to (a misconfigured Keychain
///   Sharing group): ``KeychainSessionStore/standard(scope:accessGroup:accessibility:bundleIdentifier:fallbackDirectory:fallsBackToFileWithoutEntitlement:stopsDebugBuildsOnMissingEntitlement:refreshLockURL:developerAlarm:client:)``
///   gives no fallback there, so the error is thrown (an extension never keeps a session of
///   its own in a file) and a debug build stops once with a message naming the group
///   (``stopsDebugBuildsOnMissingEntitlement``, through a ``DeveloperAlarm``).
public struct KeychainSessionStore: SessionStore {
    /// The item's service attribute.
    public let service: String
    /// The item's account attribute.
    public let account: String
    /// The keychain access group shared with app extensions, or `nil` for the app's default group.
    public let accessGroup: String?
    /// When the item can be read.
    public let accessibility: KeychainAccessibility
    /// Earlier places of the item, moved here on first read (`accessGroup == nil`: the app's default group).
    public let migrationSources: [KeychainQuery]
    /// Where the session goes when the keychain refuses for a missing entitlement (macOS), or
    /// `nil` to throw ``ErrorCode/missingEntitlement``.
    public let fallback: (any SessionStore)?
    /// Whether a debug build stops (``DeveloperAlarm``) when the keychain refuses for a missing
    /// entitlement and there is no fallback (never in a test run or an Xcode Preview).
    public let stopsDebugBuildsOnMissingEntitlement: Bool
    /// A file in a folder every process sharing the item can reach (the App Group container),
    /// locked around refreshes so that the app and its extensions refresh one at a time.
    public let refreshLockURL: URL?

    let client: KeychainClient
    let developerAlarm: DeveloperAlarm
    let state = Locked(KeychainStoreState())

    /// Creates a store for one item.
    ///
    /// - Parameters:
    ///   - service: The item's service; ``defaultService(bundleIdentifier:scope:)`` keeps apps
    ///     and servers apart.
    ///   - account: The item's account.
    ///   - accessGroup: The access group shared with extensions (`TEAMID.group.name`), or `nil`.
    ///   - accessibility: When the item can be read; background refresh needs an "after first
    ///     unlock" class.
    ///   - migratingFrom: Earlier places of the item to move here on first read.
    ///   - fallback: Where to keep the session without a keychain entitlement, or `nil` to throw.
    ///   - stopsDebugBuildsOnMissingEntitlement: Whether a debug build stops when the missing
    ///     entitlement is thrown.
    ///   - refreshLockURL: A lock file shared with the app's extensions, or `nil`.
    ///   - developerAlarm: What stopping a debug build means (tests observe it).
    ///   - client: The keychain calls.
    public init(
        service: String,
        account: String = "session",
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        migratingFrom: [KeychainQuery] = [],
        fallback: (any SessionStore)? = nil,
        stopsDebugBuildsOnMissingEntitlement: Bool = true,
        refreshLockURL: URL? = nil,
        developerAlarm: DeveloperAlarm = .standard,
        client: KeychainClient
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        var sources = migratingFrom
        if accessGroup != nil { sources.append(KeychainQuery(service: service, account: account)) }
        self.migrationSources = sources
        self.fallback = fallback
        self.stopsDebugBuildsOnMissingEntitlement = stopsDebugBuildsOnMissingEntitlement
        self.refreshLockURL = refreshLockURL
        self.developerAlarm = developerAlarm
        self.client = client
    }

    /// The default service name: the app's bundle identifier and the server's host, so that
    /// apps of one team, and staging and production, never share an item.
    public static func defaultService(bundleIdentifier: String?, scope: String) -> String {
        "gatehouse.\(bundleIdentifier ?? "app").\(scope)"
    }

    public func load() throws -> Session? {
        try run(onFallback: { try $0.load() }, keychain: { try keychainLoad() })
    }

    public func save(_ session: Session) throws {
        try run(onFallback: { try $0.save(session) }, keychain: { try keychainSave(StoredSessionFile.encode(session)) })
    }

    public func delete() throws {
        try run(onFallback: { try $0.delete() }, keychain: { try keychainDelete() })
    }

    public func takeNotices() -> [StorageNotice] {
        state.withLock { state in
            defer { state.notices = [] }
            return state.notices
        }
    }

    /// The lock at ``refreshLockURL``, or the fallback store's while the session is kept there.
    public var refreshLock: RefreshLock? {
        if let refreshLockURL { return .file(at: refreshLockURL) }
        return usesFallback ? fallback?.refreshLock : nil
    }

    /// Whether this process keeps the session in the fallback store.
    public var usesFallback: Bool { state.withLock { $0.usesFallback } }

    private func run<Result>(
        onFallback: (any SessionStore) throws -> Result,
        keychain body: () throws -> Result
    ) throws -> Result {
        if usesFallback, let fallback { return try onFallback(fallback) }
        do {
            return try body()
        } catch is MissingEntitlement {
            return try onFallback(try fallBack())
        }
    }

    /// The fallback store, once the keychain refused for a missing entitlement; without one,
    /// the error (and, once, the developer alarm).
    private func fallBack() throws -> any SessionStore {
        guard let fallback else {
            let error = AuthError.missingKeychainEntitlement(accessGroup: accessGroup)
            let first = state.withLock { state in
                defer { state.alarmRaised = true }
                return !state.alarmRaised
            }
            if first, stopsDebugBuildsOnMissingEntitlement {
                developerAlarm.raise("\(error.message) \(error.recoverySuggestion ?? "")")
            }
            throw error
        }
        state.withLock { state in
            if !state.usesFallback { state.notices.append(.fellBack(.missingKeychainEntitlement())) }
            state.usesFallback = true
        }
        return fallback
    }
}

/// What a keychain store learns once per process.
struct KeychainStoreState {
    /// Whether a probe passed, so the keychain is readable and "not found" can be trusted.
    var proven = false
    /// The access group in use (the configured one, or the default group the probe found).
    var group: String?
    /// The app's default access group, once a probe without a group found it.
    var defaultGroup: String??
    var usesFallback = false
    /// Whether the missing entitlement was reported to the developer already.
    var alarmRaised = false
    var notices: [StorageNotice] = []
}

/// The keychain refused for a missing entitlement: the store switches to its fallback.
struct MissingEntitlement: Error {}
