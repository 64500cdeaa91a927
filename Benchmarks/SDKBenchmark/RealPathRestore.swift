import Foundation
import Gatehouse
import GatehouseGoTrue

/// What an app pays at launch: it builds `GoTrueBackend(url:)` and `AuthService` with the
/// platform's default store (the file store under `$XDG_CONFIG_HOME` here; the keychain on
/// Apple platforms) and restores against a live server. Measured two ways: fresh instances in
/// this process (``inProcessSamples(server:runs:)``, the figure the targets are about), and the
/// first restore of a new process (``samples(server:runs:)``, one child process each, which adds
/// what a process pays once: loading Foundation's networking, the first URL session).
enum RealPathRestore {
    /// One child's figures, in microseconds: from the start of its work (before the backend is
    /// built) to `.success(user)`, and then the server's confirmation of the session
    /// (`isSessionVerified`), measured from `.success(user)`.
    struct Sample {
        var restore: Double
        var serverCheck: Double
    }

    /// The argument that makes this executable a measured child.
    static let childFlag = "--real-path-child"

    /// Signs a guest in against `server` once, writing the session where the default store of
    /// a process whose `XDG_CONFIG_HOME` is `configHome` finds it.
    @MainActor
    static func seed(server: URL, configHome: URL) async throws {
        try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
        let seed = AuthService(
            backend: GoTrueBackend(url: server),
            store: FileSessionStore(fileURL: defaultStoreFile(configHome: configHome)),
            configuration: .init(verifiesRestoredSession: false)
        )
        await seed.restoreSession()
        _ = try await seed.signInAnonymously()
    }

    /// `runs` restores with fresh `GoTrueBackend(url:)` and `AuthService(backend:)` instances in
    /// this process (whose `XDG_CONFIG_HOME` must be the seeded folder), as an app builds them.
    @MainActor
    static func inProcessSamples(server: URL, runs: Int) async throws -> [Sample] {
        let clock = ContinuousClock()
        var samples: [Sample] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = clock.now
            let service = AuthService(backend: GoTrueBackend(url: server))
            await service.restoreSession()
            let restored = clock.now
            guard case .success(let user?) = service.session else { fatalError("no stored user was restored") }
            await service.waitForVerification()
            let checked = clock.now
            precondition(service.isSessionVerified && service.currentUser?.id == user.id, "the server confirmed it")
            samples.append(Sample(restore: microseconds(restored - start), serverCheck: microseconds(checked - restored)))
        }
        return samples
    }

    /// `runs` child processes, each restoring once (the folder `configHome` seeded).
    static func samples(server: URL, configHome: URL, runs: Int) throws -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            samples.append(try runChild(server: server, configHome: configHome))
        }
        return samples
    }

    /// The file the default store of `AuthService(backend:)` uses on Linux when
    /// `XDG_CONFIG_HOME` is `configHome` (the child fails when it finds no session there).
    private static func defaultStoreFile(configHome: URL) -> URL {
        FileSessionStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": configHome.path])
            .appendingPathComponent("session.json")
    }

    private static func runChild(server: URL, configHome: URL) throws -> Sample {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [childFlag, server.absoluteString]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configHome.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            Double($0)
        }
        guard process.terminationStatus == 0, fields.count == 2 else {
            fatalError("a real-path child failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
        }
        return Sample(restore: fields[0], serverCheck: fields[1])
    }

    /// The child: restore as an app builds it, print "restore_µs check_µs".
    @MainActor
    static func child(server: URL) async -> Never {
        let clock = ContinuousClock()
        let start = clock.now
        let service = AuthService(backend: GoTrueBackend(url: server))
        await service.restoreSession()
        let restored = clock.now
        guard case .success(let user?) = service.session else {
            print("no stored user was restored: \(service.session)")
            exit(1)
        }
        await service.waitForVerification()
        let checked = clock.now
        guard service.isSessionVerified, service.currentUser?.id == user.id else {
            print("the server did not confirm the session")
            exit(1)
        }
        print(microseconds(restored - start), microseconds(checked - restored))
        exit(0)
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
