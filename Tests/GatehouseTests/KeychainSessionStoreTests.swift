import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@Suite("Keychain store logic, on a simulated keychain")
struct KeychainSessionStoreTests {
    static let session = Session(
        accessToken: "access",
        refreshToken: "refresh",
        expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
        user: User(id: "user-1", email: "ada@example.com")
    )

    func store(
        _ keychain: SimulatedKeychain,
        accessGroup: String? = nil,
        migratingFrom: [KeychainQuery] = [],
        fallback: (any SessionStore)? = nil
    ) -> KeychainSessionStore {
        KeychainSessionStore(
            service: "app.service",
            accessGroup: accessGroup,
            migratingFrom: migratingFrom,
            fallback: fallback,
            stopsDebugBuildsOnMissingEntitlement: false,
            client: keychain.client
        )
    }

    @Test func savesLoadsAndDeletes() throws {
        let keychain = SimulatedKeychain()
        let store = store(keychain)
        #expect(try store.load() == nil)
        try store.save(Self.session)
        #expect(try store.load() == Self.session)
        #expect(keychain.items.map(\.accessibility) == [.afterFirstUnlockThisDeviceOnly])
        try store.delete()
        #expect(try store.load() == nil)
        #expect(keychain.items.isEmpty, "the probe item is removed too")
    }

    @Test func aSpuriousNotFoundWhileLockedIsReportedAsLockedNotAsSignedOut() throws {
        let keychain = SimulatedKeychain()
        try store(keychain).save(Self.session)
        keychain.lockBeforeFirstUnlock(answeringNotFound: true)

        let afterReboot = store(keychain)
        #expect(throws: AuthError.storageLocked()) { try afterReboot.load() }
        #expect(throws: AuthError.storageLocked()) { try afterReboot.save(Self.session) }

        keychain.unlock()
        #expect(try afterReboot.load() == Self.session)
    }

    @Test func interactionNotAllowedIsLocked() throws {
        let keychain = SimulatedKeychain()
        try store(keychain).save(Self.session)
        keychain.lockBeforeFirstUnlock(answeringNotFound: false)
        #expect(throws: AuthError.storageLocked()) { try store(keychain).load() }
    }

    @Test func everyQueryNamesTheAccessGroupInUse() throws {
        let keychain = SimulatedKeychain(defaultGroup: "TEAM.com.example.app")
        let store = store(keychain)
        try store.save(Self.session)
        _ = try store.load()
        try store.delete()
        let itemCalls = keychain.calls.filter { $0.query.service == "app.service" }
        #expect(!itemCalls.isEmpty)
        #expect(itemCalls.allSatisfy { $0.query.accessGroup == "TEAM.com.example.app" })
    }

    @Test func anItemInAnotherGroupOfTheAppIsNotTakenForOurs() throws {
        let keychain = SimulatedKeychain(defaultGroup: "TEAM.com.example.app", sharedGroups: ["TEAM.shared"])
        try store(keychain, accessGroup: "TEAM.shared").save(Self.session)
        var other = Self.session
        other.user = User(id: "user-2")
        // Written by the app's own default-group store: it must not read the shared group's item.
        #expect(try store(keychain).load() == nil)
        try store(keychain).save(other)
        #expect(try store(keychain, accessGroup: "TEAM.shared").load() == Self.session)
    }

    @Test func movingToAnAccessGroupMigratesTheExistingItem() throws {
        let keychain = SimulatedKeychain(defaultGroup: "TEAM.com.example.app", sharedGroups: ["TEAM.group.widgets"])
        try store(keychain).save(Self.session)

        let shared = store(keychain, accessGroup: "TEAM.group.widgets")
        #expect(try shared.load() == Self.session)

        let places = keychain.items.map(\.accessGroup)
        #expect(places == ["TEAM.group.widgets"], "moved, not copied")
        #expect(try store(keychain, accessGroup: "TEAM.group.widgets").load() == Self.session)
    }

    @Test func theItemOfEarlierReleasesIsMigratedAndTheOldNameRemoved() throws {
        let keychain = SimulatedKeychain()
        let legacy = store(keychain)
        let old = KeychainSessionStore(
            service: "gatehouse",
            stopsDebugBuildsOnMissingEntitlement: false,
            client: keychain.client
        )
        try old.save(Self.session)

        let current = KeychainSessionStore.standard(
            scope: "auth.example.com",
            bundleIdentifier: "com.example.app",
            fallbackDirectory: FileManager.default.temporaryDirectory,
            client: keychain.client
        )
        #expect(current.service == "gatehouse.com.example.app.auth.example.com")
        #expect(try current.load() == Self.session)
        #expect(keychain.items.map(\.service) == ["gatehouse.com.example.app.auth.example.com"])
        #expect(try legacy.load() == nil)
    }

    @Test func defaultNamesKeepAppsAndServersApart() {
        let staging = KeychainSessionStore.defaultService(
            bundleIdentifier: "com.example.app",
            scope: "staging.example.com"
        )
        let production = KeychainSessionStore.defaultService(bundleIdentifier: "com.example.app", scope: "example.com")
        let otherApp = KeychainSessionStore.defaultService(bundleIdentifier: "com.example.other", scope: "example.com")
        #expect(Set([staging, production, otherApp]).count == 3)
    }

    @Test func missingEntitlementFallsBackOnceAndTheSessionSurvivesARestart() throws {
        let keychain = SimulatedKeychain()
        keychain.setEntitled(false)
        let directory = try TemporaryDirectory()
        let file = FileSessionStore(fileURL: directory.url.appendingPathComponent("fallback.json"))

        let store = store(keychain, fallback: file)
        #expect(try store.load() == nil)
        #expect(store.usesFallback)
        try store.save(Self.session)
        #expect(store.takeNotices() == [.fellBack(.missingKeychainEntitlement())])
        #expect(store.takeNotices().isEmpty, "said once")

        let relaunched = self.store(keychain, fallback: file)
        #expect(try relaunched.load() == Self.session)
    }

    @Test func missingEntitlementWithoutAFallbackIsAnError() {
        let keychain = SimulatedKeychain()
        keychain.setEntitled(false)
        #expect(throws: AuthError.missingKeychainEntitlement()) { try store(keychain).load() }
    }

    @Test func aSessionKeptInTheFallbackMovesIntoTheKeychainOnceEntitled() throws {
        let keychain = SimulatedKeychain()
        let directory = try TemporaryDirectory()
        let file = FileSessionStore(fileURL: directory.url.appendingPathComponent("fallback.json"))
        try file.save(Self.session)

        #expect(try store(keychain, fallback: file).load() == Self.session)
        #expect(try file.load() == nil)
        #expect(keychain.items.count == 1)
    }

    @Test func failuresAreStorageErrorsWithTheStatus() throws {
        let keychain = SimulatedKeychain()
        let store = store(keychain)
        _ = try store.load()
        keychain.fail(.update, with: .other(-25291))
        #expect(throws: AuthError.self) { try store.save(Self.session) }
        do {
            try store.save(Self.session)
        } catch let error as AuthError {
            #expect(error.code == .storageFailure)
            #expect(error.underlying?.contains("-25291") == true)
        }
    }

    @Test func anUnreadableItemIsCorruptAndCanBeReplaced() throws {
        let keychain = SimulatedKeychain()
        keychain.insert(
            .init(service: "app.service", account: "session", accessGroup: keychain.defaultGroup, data: Data("{".utf8))
        )
        let store = store(keychain)
        #expect(throws: AuthError.self) { try store.load() }
        do { _ = try store.load() } catch let error as AuthError { #expect(error.code == .storageCorrupt) }
        try store.save(Self.session)
        #expect(try store.load() == Self.session)
    }
}
