public import Foundation

/// A session store in the keychain: one generic-password item, readable after the device's
/// first unlock (configurable), named by service, account and access group.
///
/// The default store on Apple platforms. Its logic runs over a ``KeychainClient`` (the device's
/// keychain, ``KeychainClient/live``, or a simulated one in tests), so every rule below is
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
/// - **No entitlement falls back.** On ``ErrorCode/missingEntitlement`` (a macOS app without a
///   provisioning profile, unit tests without a host app) the store keeps the session in
///   ``fallback`` for the rest of the process, reports it once as a ``StorageNotice``, and a
///   debug build stops with a message naming the entitlement
///   (``stopsDebugBuildsOnMissingEntitlement``). With no fallback the error is thrown.
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
    /// Where the session goes when the keychain refuses for a missing entitlement.
    public let fallback: (any SessionStore)?
    /// Whether a debug build stops (`assertionFailure`) when the store falls back (never in a test run).
    public let stopsDebugBuildsOnMissingEntitlement: Bool
    /// A file in a folder every process sharing the item can reach (the App Group container),
    /// locked around refreshes so that the app and its extensions refresh one at a time.
    public let refreshLockURL: URL?

    let client: KeychainClient
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
    ///   - stopsDebugBuildsOnMissingEntitlement: Whether a debug build stops when falling back.
    ///   - refreshLockURL: A lock file shared with the app's extensions, or `nil`.
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

    private func fallBack() throws -> any SessionStore {
        let error = AuthError.missingKeychainEntitlement()
        guard let fallback else { throw error }
        let first = state.withLock { state in
            defer { state.usesFallback = true }
            if !state.usesFallback { state.notices.append(.fellBack(error)) }
            return !state.usesFallback
        }
        #if DEBUG
        if first, stopsDebugBuildsOnMissingEntitlement, !Self.isRunningTests {
            assertionFailure(
                "Gatehouse: the keychain refused with errSecMissingEntitlement. Sign the app with a "
                    + "provisioning profile that has the keychain-access-groups entitlement (Keychain "
                    + "Sharing capability). Sessions are kept in the fallback store until then."
            )
        }
        #endif
        return fallback
    }

    /// Whether this process is a test run (XCTest or Swift Testing under Xcode), where a debug
    /// stop would end the run instead of telling a developer.
    static var isRunningTests: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["XCTestConfigurationFilePath"] != nil || environment["XCTestBundlePath"] != nil
            || environment["XCTestSessionIdentifier"] != nil
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
    var notices: [StorageNotice] = []
}

/// The keychain refused for a missing entitlement: the store switches to its fallback.
struct MissingEntitlement: Error {}
