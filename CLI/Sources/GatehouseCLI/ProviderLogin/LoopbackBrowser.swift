public import Foundation
public import Gatehouse

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's ``ProviderSignInBrowser`` (RFC 8252 §7.3): it opens the system browser at
/// the sign-in URL (or prints the URL), and receives the redirect on its ``LoopbackListener``.
///
/// Only a request to `/callback` with the flow's `state` ends the wait (anything else on the
/// port, a favicon or a page guessing at the port, is refused and the wait goes on). The wait
/// ends after ``timeout`` (``ErrorCode/requestTimeout``) or on Ctrl-C (``ErrorCode/cancelled``);
/// either way the port is released and nothing was saved.
@MainActor
public final class LoopbackBrowser: ProviderSignInBrowser {
    /// How the sign-in URL reaches a browser.
    public enum Opening: Sendable, Equatable {
        /// Print the URL only (`--no-browser`, or no display to open a browser on).
        case printOnly
        /// Run this command with the URL as its last argument (`xdg-open`, `open`, `$GATEHOUSE_BROWSER`).
        case command([String])
    }

    /// The listener the redirect arrives on.
    public let listener: LoopbackListener
    /// How the URL is opened.
    public let opening: Opening
    /// How long to wait for the redirect.
    public let timeout: Duration
    private let console: Console

    /// Creates a browser on a fresh loopback port.
    public init(opening: Opening, timeout: Duration, console: Console) throws {
        self.listener = try LoopbackListener()
        self.opening = opening
        self.timeout = timeout
        self.console = console
    }

    /// The opening for this machine: `$GATEHOUSE_BROWSER` (a command, split at spaces), else
    /// macOS's `open`, else `xdg-open` when a display is set (`DISPLAY`, `WAYLAND_DISPLAY`);
    /// otherwise (an SSH session, a container) the URL is printed.
    public nonisolated static func opening(noBrowser: Bool, environment: [String: String]) -> Opening {
        if noBrowser { return .printOnly }
        if let command = environment["GATEHOUSE_BROWSER"]?.split(separator: " ").map(String.init), !command.isEmpty {
            return .command(command)
        }
        #if os(macOS)
        return .command(["/usr/bin/open"])
        #else
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        return display ? .command(["xdg-open"]) : .printOnly
        #endif
    }

    /// Opens the URL and waits for the redirect.
    public func open(_ url: URL, for flow: ProviderSignInFlow) async throws -> BrowserRedirect {
        defer { listener.close() }
        console.err("To sign in, open this address in a browser:\n\n    \(url.absoluteString)\n")
        if case .command(let command) = opening { launch(command + [url.absoluteString]) }
        // Ctrl-C is caught (after the browser started, which keeps its default) before the
        // person is told it cancels.
        let interrupt = InterruptWatch()
        defer { interrupt.stop() }
        console.err("Waiting for the browser (at most \(timeout.components.seconds) seconds; Ctrl-C cancels)…")
        let state = flow.state
        let accepts: @Sendable (String) -> Bool = { target in
            guard let url = URL(string: "http://127.0.0.1" + target),
                let items = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { return false }
            return items.path == "/callback" && items.queryItems?.first(where: { $0.name == "state" })?.value == state
        }
        let listener = self.listener
        let deadline = ContinuousClock.now + timeout
        let target = try await interrupt.cancelling {
            try await listener.nextRequest(accepting: accepts, page: Self.page, until: deadline)
        }
        guard let target else {
            throw AuthError(
                code: .requestTimeout,
                message: "No answer from the browser within \(timeout.components.seconds) seconds.",
                recoverySuggestion: "Run the login again, and finish the sign-in in the browser.",
                isRetryable: true
            )
        }
        return .redirected(URL(string: "http://127.0.0.1:\(listener.port)" + target)!)
    }

    /// The page the browser shows once the redirect arrived.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Gatehouse</title></head>
        <body><h1 id="status">Back to the terminal</h1><p>The sign-in reached <code>gatehouse</code>. You can close this tab.</p></body></html>
        """

    /// Starts the browser command; a failure only means the person opens the printed URL.
    private func launch(_ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            console.err("Could not start \(arguments[0]); open the address above yourself.")
        }
    }
}

/// Ctrl-C (SIGINT) while a wait runs: from ``init()`` until ``stop()`` the signal cancels the
/// wait instead of killing the process, so the port is released and the person told; ``stop()``
/// restores the default action.
///
/// The handler is installed synchronously (a Dispatch signal source registers itself later, on
/// Dispatch's own thread, and a Ctrl-C pressed in between was ignored: the CLI then waited its
/// whole time); it only writes a byte to a pipe, which a thread of its own reads.
final class InterruptWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted = false
    private var cancelWork: (@Sendable () -> Void)?

    init() {
        let pipe = InterruptPipe.shared
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(InterruptPipe.shared.write, &byte, 1)
        }
        let reader = Thread { [weak self] in
            var byte: UInt8 = 0
            while read(pipe.read, &byte, 1) == 1 {
                // 0 is ``stop()``'s: the watch is over.
                guard byte == 1 else { return }
                self?.interrupt()
            }
        }
        reader.stackSize = 1 << 16
        reader.start()
    }

    private func interrupt() {
        let cancel = lock.withLock { () -> (@Sendable () -> Void)? in
            interrupted = true
            return cancelWork
        }
        cancel?()
    }

    /// Runs `body` in a task that Ctrl-C cancels (also when it came before); a cancelled wait
    /// throws ``ErrorCode/cancelled``.
    func cancelling<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let work = Task { try await body() }
        let early = lock.withLock { () -> Bool in
            cancelWork = { work.cancel() }
            return interrupted
        }
        if early { work.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch is CancellationError {
            throw AuthError.authorizationCancelled()
        }
    }

    /// Restores Ctrl-C's default action and ends the thread that waited for it.
    func stop() {
        signal(SIGINT, SIG_DFL)
        var byte: UInt8 = 0
        _ = write(InterruptPipe.shared.write, &byte, 1)
    }
}

/// The pipe from the SIGINT handler to ``InterruptWatch``'s thread, made before any handler is
/// installed (the handler may only make async-signal-safe calls: `write`).
struct InterruptPipe: Sendable {
    let read: Int32
    let write: Int32

    static let shared: InterruptPipe = {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        return InterruptPipe(read: ends[0], write: ends[1])
    }()
}
