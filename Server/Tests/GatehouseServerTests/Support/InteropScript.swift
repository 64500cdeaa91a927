import Foundation
import GatehouseProcessTesting

#if canImport(Glibc)
import Glibc
#endif

/// A Python script of `Server/Tests/Interop/` run against the server under test.
enum InteropScript {
    /// The browser the scripts drive, handed to each as `GATEHOUSE_CHROMIUM`: Debian's
    /// chromium-headless-shell (Chromium's own headless browser, half the CPU of the full
    /// browser's headless mode in the browser tests), else its full Chromium, unless
    /// `GATEHOUSE_CHROMIUM` names another.
    static let chromium =
        ProcessInfo.processInfo.environment["GATEHOUSE_CHROMIUM"]
        ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/chromium-headless-shell"

    /// What the script printed (stdout and stderr together) and how it exited.
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs `python3 Interop/<name> <arguments…>` to its end and prints its output into the
    /// test log. Each line the script prints goes to `answer` as it arrives; a reply it returns
    /// is written to the script's standard input, one line (a script that needs the test to act,
    /// say move the server's clock, asks this way and waits).
    ///
    /// With `timeout`, a script still running then is killed (its outcome says so): a test that
    /// drives a browser never waits without bound.
    static func run(
        _ name: String,
        _ arguments: [String],
        timeout: Duration? = nil,
        answer: (@Sendable (String) -> String?)? = nil
    ) async throws -> Outcome {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Interop/\(name)")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["GATEHOUSE_CHROMIUM": chromium]) { $1 }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = .pipe(output)
        process.standardError = .pipe(output)
        process.standardInput = .pipe(input)
        try process.run()
        // Read while waiting: a script that outlives its time is killed, which ends the read.
        async let data = Blocking.run { readLines(output, answer: answer, to: input) }
        let exited = await process.waitUntilExit(timeout: timeout ?? .seconds(600))
        let text = String(decoding: await data, as: UTF8.self)
        if !exited { print("\(name) ran longer than \(timeout ?? .seconds(600)): killed") }
        print(text)
        return Outcome(status: exited ? process.terminationStatus : -1, output: text)
    }

    /// Reads `output` to its end, handing each complete line to `answer` on the way.
    private static func readLines(_ output: Pipe, answer: ((String) -> String?)?, to input: Pipe) -> Data {
        let reader = output.fileHandleForReading
        var all = Data()
        var pending = Data()
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            all.append(chunk)
            guard let answer else { continue }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let reply = answer(line) { input.fileHandleForWriting.write(Data((reply + "\n").utf8)) }
            }
        }
        return all
    }
}
