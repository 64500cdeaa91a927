import Foundation
import GatehouseProcessTesting

/// Runs a repository script (`scripts/…`) to its end, with a time limit: past it the script is
/// killed and the run fails, so a test never waits on a child forever.
enum Script {
    /// The repository's root (this file is `Server/Tests/GatehouseServerTests/Support/Script.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `bash scripts/<name> <arguments>` with `environment` added; returns its standard output.
    static func run(
        _ name: String,
        _ arguments: [String] = [],
        environment extra: [String: String] = [:],
        timeout: Duration = .seconds(180)
    ) async throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("scripts/\(name)").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = .pipe(output)
        process.standardError = .pipe(errors)
        try process.run()
        // The pipes are read to their end off the cooperative pool; the wait is bounded.
        async let text = Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        async let problems = Blocking.run { errors.fileHandleForReading.readDataToEndOfFile() }
        let exited = await process.waitUntilExit(timeout: timeout)
        let (stdout, stderr) = (String(decoding: await text, as: UTF8.self), String(decoding: await problems, as: UTF8.self))
        guard exited, process.terminationStatus == 0 else {
            throw Failure(description: "scripts/\(name) \(arguments) failed (exited by itself: \(exited)): \(stderr)")
        }
        return stdout
    }
}
