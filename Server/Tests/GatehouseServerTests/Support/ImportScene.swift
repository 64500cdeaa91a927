import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import Testing

/// A folder with an export in it, the suite's database for that folder (SQLite, or PostgreSQL
/// when the suite runs there), `gatehouse-server import` run on it as the built binary, and a
/// server with a fake Apple and Google on the same database afterwards.
struct ImportScene {
    let directory: URL
    let url: String
    let secret: String?

    static func make() async throws -> ImportScene {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-import-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = TestDatabase.url(of: try await TestDatabase.database(for: directory))
        return ImportScene(directory: directory, url: url, secret: TestDatabase.secret(for: directory))
    }

    /// Writes `text` to `name` in the folder; returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Runs `gatehouse-server import …`.
    func run(_ arguments: [String]) async throws -> KeysCommandTests.Run {
        try await KeysCommandTests.run(["import"] + arguments, database: url, secret: secret)
    }

    /// The summary line of a run ("imported 3 (…), already present 0, refused 2").
    static func summary(_ run: KeysCommandTests.Run) -> String { run.lines.last ?? "" }

    /// A server on the imported database with a fake Apple and Google, over real HTTP.
    func serve(
        _ body: @escaping @Sendable (Client, FakeProvider, FakeProvider, Harness) async throws -> Void
    ) async throws {
        let apple = try await FakeProvider.start(
            issuer: "https://appleid.apple.com",
            clientID: IDTokenTests.appleClient
        )
        let google = try await FakeProvider.start(
            issuer: "https://accounts.google.com",
            clientID: IDTokenTests.googleClient
        )
        do {
            let harness = try await Harness.make(directory: directory) { configuration in
                configuration.apple = IdentityProviderSettings(
                    clientIDs: [IDTokenTests.appleClient],
                    jwksURL: apple.url
                )
                configuration.google = IdentityProviderSettings(
                    clientIDs: [IDTokenTests.googleClient],
                    jwksURL: google.url
                )
            }
            try await harness.live { client in try await body(client, apple, google, harness) }
        } catch {
            await apple.stop()
            await google.stop()
            throw error
        }
        await apple.stop()
        await google.stop()
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
