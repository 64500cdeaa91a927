import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

#if canImport(Glibc)
import Glibc
#endif

/// Issue 15: the SQLite database, its `-wal` and `-shm` and the `.secret` file are the server
/// user's alone, and a start on files others may read is refused.
@Suite("SQLite files are private")
struct FilePermissionTests {
    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-perm-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func configuration(_ path: String) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.database = .sqliteFile(path)
        return configuration
    }

    static func mode(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.posixPermissions] as? NSNumber).map { $0.intValue & 0o777 }
    }

    @Test func aNewDatabaseAndItsSecretAreCreated0600() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gatehouse.sqlite").path
        let previous = umask(0o022)
        defer { umask(previous) }
        let server = try await buildServer(configuration: Self.configuration(path), logger: .quiet)
        for file in [path, path + "-wal", path + "-shm", path + ".secret"] {
            #expect(Self.mode(file) == 0o600, "\(file) is \(String(Self.mode(file) ?? 0, radix: 8))")
        }
        try await server.storage.close()
    }

    @Test(arguments: ["", "-wal", "-shm", ".secret"])
    func aFileOthersMayReadStopsTheStart(suffix: String) async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gatehouse.sqlite").path
        let first = try await buildServer(configuration: Self.configuration(path), logger: .quiet)
        try await first.storage.close()
        // A -wal or -shm left by a crash, or a file copied in with the default mode.
        if !FileManager.default.fileExists(atPath: path + suffix) {
            _ = FileManager.default.createFile(atPath: path + suffix, contents: Data())
        }
        chmod(path + suffix, 0o644)

        let error = await #expect(throws: ConfigurationError.self) {
            _ = try await buildServer(configuration: Self.configuration(path), logger: .quiet)
        }
        #expect(error?.description.contains("chmod 600") == true, "\(String(describing: error))")
    }
}
