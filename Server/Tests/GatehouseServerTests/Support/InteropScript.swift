import Foundation

/// A Python script of `Server/Tests/Interop/` run against the server under test.
enum InteropScript {
    /// What the script printed (stdout and stderr together) and how it exited.
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs `python3 Interop/<name> <arguments…>` to its end and prints its output into the
    /// test log.
    static func run(_ name: String, _ arguments: [String]) async throws -> Outcome {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Interop/\(name)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = await Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        await Blocking.waitUntilExit(process)
        let text = String(decoding: data, as: UTF8.self)
        print(text)
        return Outcome(status: process.terminationStatus, output: text)
    }
}
