import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// The official Python `supabase-auth` client against the real server over loopback.
///
/// `.ci/run` installs the client (Server/Tests/Interop/requirements.txt). Locally without it the
/// test is skipped, unless `CI` is set: then a missing client is a failure.
@Suite("Python supabase-auth interop")
struct PythonInteropTests {
    static var clientInstalled: Bool { PythonModules.installed("supabase_auth") }

    static var required: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    @Test(.enabled(if: clientInstalled || required, "python3 with supabase-auth is not installed (CI installs it)"))
    func officialClientSignsUpConfirmsSignsInUpdatesRefreshesAndSignsOut() async throws {
        let mailbox = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-mailbox-\(UUID().uuidString)"
        )
        _ = FileManager.default.createFile(atPath: mailbox.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: mailbox) }
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let server = try await buildServer(
            configuration: harness.configuration,
            mailer: FileMailer(url: mailbox),
            now: { Date() },
            logger: {
                var logger = Logger(label: "interop")
                logger.logLevel = .critical
                return logger
            }()
        )
        try await LiveServer.run(server.application) { client in
            let port = try #require(client.port)
            let run = try await InteropScript.run("interop.py", ["http://127.0.0.1:\(port)", mailbox.path])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("12 passed, 0 failed"))
        }
        try await server.storage.close()
        try await harness.server.storage.close()
    }
}

/// Appends "<address> <code>" lines to a file, for the Python script to read.
struct FileMailer: Mailer {
    let url: URL

    /// Mail goes out concurrently (both sides of an e-mail change at once): without the lock, two
    /// handles seek to the same end and one line overwrites the other.
    private static let lock = Mutex(())

    func send(_ mail: Mail) async throws {
        let line = Data("\(mail.to) \(CapturingMailer.code(in: mail.body) ?? "-")\n".utf8)
        try Self.lock.withLock { _ in
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
        }
    }
}
