import Foundation
import Gatehouse
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("File session store")
struct FileSessionStoreTests {
    let session = Session(
        accessToken: "access",
        refreshToken: "refresh",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        user: User(id: "u1", email: "ada@example.com", userMetadata: ["name": "Ada"])
    )

    func mode(_ path: String) throws -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return info.st_mode & 0o777
    }

    @Test func savesWithOwnerOnlyPermissionsInAPrivateFolder() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("config/gatehouse/session.json")
        let store = FileSessionStore(fileURL: url)

        try store.save(session)

        #expect(try mode(url.path) == 0o600)
        #expect(try mode(url.deletingLastPathComponent().path) == 0o700)
        #expect(try store.load() == session)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers == ["session.json"], "no temporary files remain")
    }

    @Test func tightensAnExistingFolder() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("gatehouse")
        try FileManager.default.createDirectory(
            at: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755]
        )
        let store = FileSessionStore(fileURL: folder.appendingPathComponent("session.json"))
        try store.save(session)
        #expect(try mode(folder.path) == 0o700)
    }

    @Test func loadOfAMissingFileIsNil() throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("none/session.json"))
        #expect(try store.load() == nil)
        try store.delete()
    }

    @Test func replacesTheSessionAtomically() throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        try store.save(session)
        var next = session
        next.refreshToken = "rotated"
        try store.save(next)
        #expect(try store.load()?.refreshToken == "rotated")
        #expect(try mode(store.fileURL.path) == 0o600)
    }

    @Test func aCorruptFileIsAClearErrorAndIsNeverSilentlyOverwritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("session.json")
        try Data("{not json".utf8).write(to: url)
        let store = FileSessionStore(fileURL: url)

        let error = try #require(throws: AuthError.self) { try store.load() }
        #expect(error.code == .storageCorrupt)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == Data("{not json".utf8), "left in place")

        try store.save(session)
        #expect(try Data(contentsOf: url.appendingPathExtension("corrupt")) == Data("{not json".utf8))
        #expect(try store.load() == session)
    }

    @Test func anUnknownFormatVersionIsCorruptNotEmpty() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("session.json")
        try Data(#"{"version": 99, "session": {}}"#.utf8).write(to: url)
        #expect(throws: AuthError.self) { try FileSessionStore(fileURL: url).load() }
    }

    @Test func anUnreadableFileIsAStorageFailure() throws {
        guard getuid() != 0 else { return }  // root reads anything
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        try store.save(session)
        chmod(store.fileURL.path, 0o000)
        let error = try #require(throws: AuthError.self) { try store.load() }
        #expect(error.code == .storageFailure)
    }

    @Test func defaultLocationFollowsXDG() {
        let xdg = FileSessionStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"])
        #expect(xdg.path == "/xdg/gatehouse")
        let home = FileSessionStore.defaultDirectory(environment: ["HOME": "/home/ada"])
        #expect(home.path == "/home/ada/.config/gatehouse")
        let relative = FileSessionStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/ada"])
        #expect(relative.path == "/home/ada/.config/gatehouse")
    }
}

@Suite("Stored session round trip")
struct StoredSessionRoundTripTests {
    @Test func datesWithFractionalSecondsRoundTripExactly() throws {
        let directory = try TemporaryDirectory()
        let store = FileSessionStore(fileURL: directory.url.appendingPathComponent("session.json"))
        let created = Date(timeIntervalSince1970: 1_795_000_000.123)
        let session = Session(
            accessToken: "a",
            refreshToken: "r",
            expiresAt: Date(timeIntervalSinceNow: 3600.456),
            user: User(id: "u", createdAt: created, lastSignInAt: created.addingTimeInterval(0.789))
        )
        try store.save(session)
        #expect(try store.load() == session)
    }
}
