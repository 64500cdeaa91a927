import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Issue 30: a missing keychain entitlement keeps a file session only on macOS (an app without
/// a provisioning profile); on iOS and the other devices it is a misconfigured access group and
/// an error, which stops a debug build once. An app and its extension racing on their first
/// save update the item instead of failing.
@Suite("Keychain: missing entitlements per platform, racing first saves")
struct KeychainEntitlementTests {
    static let session = KeychainSessionStoreTests.session

    /// The default store as one platform builds it (`fallsBackToFileWithoutEntitlement`).
    func standard(
        _ keychain: SimulatedKeychain,
        accessGroup: String? = nil,
        macOS: Bool,
        directory: URL,
        alarm: AlarmRecorder
    ) -> KeychainSessionStore {
        KeychainSessionStore.standard(
            scope: "auth.example.com",
            accessGroup: accessGroup,
            bundleIdentifier: "com.example.app",
            fallbackDirectory: directory,
            fallsBackToFileWithoutEntitlement: macOS,
            developerAlarm: alarm.alarm,
            client: keychain.client
        )
    }

    @Test func onIOSAGroupTheAppIsNotEntitledToIsAnErrorNeverAFileSession() throws {
        let keychain = SimulatedKeychain(sharedGroups: ["TEAMID.group.other"])
        let directory = try TemporaryDirectory()
        let alarm = AlarmRecorder()
        let store = standard(keychain, accessGroup: "TEAMID.group.app", macOS: false, directory: directory.url, alarm: alarm)

        #expect(throws: AuthError.missingKeychainEntitlement(accessGroup: "TEAMID.group.app")) { try store.load() }
        #expect(throws: AuthError.self) { try store.save(Self.session) }
        #expect(!store.usesFallback)
        #expect(store.takeNotices().isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files.isEmpty, "no session of its own in a file")
        #expect(alarm.messages.count == 1, "a debug build stops once")
        #expect(alarm.messages.first?.contains("TEAMID.group.app") == true)
        let error = AuthError.missingKeychainEntitlement(accessGroup: "TEAMID.group.app")
        #expect(error.recoverySuggestion?.contains("Keychain Sharing") == true)
        #expect(AuthGate.actions(for: error) == [.signInAgain], "the gate does not offer a retry that cannot pass")
    }

    @Test func onMacOSAnAppWithoutAProfileKeepsAFileSessionWithoutStopping() throws {
        let keychain = SimulatedKeychain()
        keychain.setEntitled(false)
        let directory = try TemporaryDirectory()
        let alarm = AlarmRecorder()
        let store = standard(keychain, macOS: true, directory: directory.url, alarm: alarm)

        try store.save(Self.session)
        #expect(try store.load() == Self.session)
        #expect(store.usesFallback)
        #expect(store.takeNotices() == [.fellBack(.missingKeychainEntitlement())])
        #expect(alarm.messages.isEmpty, "a new macOS project's first run is not stopped")
    }

    @Test func thePlatformDefaultFallsBackOnlyOnMacOS() {
        #if os(macOS) || targetEnvironment(macCatalyst)
        #expect(KeychainSessionStore.fallsBackToFileByDefault)
        #else
        #expect(!KeychainSessionStore.fallsBackToFileByDefault)
        #endif
    }

    @Test func anAppAndItsExtensionRacingOnTheFirstSaveUpdateTheItem() throws {
        let keychain = SimulatedKeychain()
        let ours = KeychainSessionStore(
            service: "app.service",
            stopsDebugBuildsOnMissingEntitlement: false,
            client: Self.racing(keychain)
        )
        _ = try ours.load()

        try ours.save(Self.session)

        let stored = try KeychainSessionStore(
            service: "app.service",
            stopsDebugBuildsOnMissingEntitlement: false,
            client: keychain.client
        ).load()
        #expect(stored == Self.session, "ours, written over the extension's")
        #expect(keychain.items.filter { $0.service == "app.service" }.count == 1)
    }

    @Test func anUnreadableKeychainItemDoesNotTalkAboutAFile() throws {
        let keychain = SimulatedKeychain()
        keychain.insert(
            .init(service: "app.service", account: "session", accessGroup: keychain.defaultGroup, data: Data("{".utf8))
        )
        let store = KeychainSessionStore(
            service: "app.service",
            stopsDebugBuildsOnMissingEntitlement: false,
            client: keychain.client
        )
        let error = try #require(throws: AuthError.self) { try store.load() }
        #expect(error.code == .storageCorrupt)
        #expect(error.message.contains("keychain"))
        #expect(!error.message.contains("file") && error.recoverySuggestion?.contains("file") == false)
        #expect(!error.message.contains("/app.service/session") && error.message.contains("app.service/session"))
    }

    /// The keychain of an app whose extension saves its first session between our update
    /// (nothing there yet) and our add: the add answers `errSecDuplicateItem`.
    static func racing(_ keychain: SimulatedKeychain) -> KeychainClient {
        let raced = Locked(false)
        let inner = keychain.client
        return KeychainClient(
            copyMatching: inner.copyMatching,
            add: { query, data, accessibility in
                if query.service == "app.service", !raced.withLock({ $0 }) {
                    raced.withLock { $0 = true }
                    let theirs = try! StoredSession.data(of: Self.extensionSession)
                    _ = inner.add(query, theirs, accessibility)
                }
                return inner.add(query, data, accessibility)
            },
            update: inner.update,
            delete: inner.delete
        )
    }

    static let extensionSession = Session(
        accessToken: "extension-access",
        refreshToken: "extension-refresh",
        expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
        user: User(id: "user-1", email: "ada@example.com")
    )
}

/// The bytes a store writes for a session, through a store of its own.
enum StoredSession {
    static func data(of session: Session) throws -> Data {
        let keychain = SimulatedKeychain()
        let store = KeychainSessionStore(service: "s", stopsDebugBuildsOnMissingEntitlement: false, client: keychain.client)
        try store.save(session)
        return keychain.items.first { $0.service == "s" }!.data
    }
}

/// A developer alarm that records what would have stopped a debug build.
final class AlarmRecorder: Sendable {
    private let raised = Locked<[String]>([])
    var messages: [String] { raised.withLock { $0 } }
    var alarm: DeveloperAlarm { DeveloperAlarm { [raised] message in raised.withLock { $0.append(message) } } }
}
