import Foundation

/// An animation on standard error while the command waits for the network, shown only when
/// standard output is a terminal and the output is not JSON.
public enum Spinner {
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Runs `body`, animating `message` meanwhile when `enabled`.
    public static func run<Result: Sendable>(
        _ message: String,
        enabled: Bool,
        _ body: @MainActor () async throws -> Result
    ) async rethrows -> Result {
        guard enabled else { return try await body() }
        let animation = Task.detached {
            var index = 0
            while !Task.isCancelled {
                FileHandle.standardError.write(Data("\r\(frames[index % frames.count]) \(message)".utf8))
                index += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        }
        defer { animation.cancel() }
        let result = try await body()
        animation.cancel()
        await animation.value
        return result
    }
}
