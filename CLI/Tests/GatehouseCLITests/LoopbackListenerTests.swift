import Foundation
import GatehouseCLI
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback port of `gatehouse login --provider` (RFC 8252 §7.3): only the awaited request
/// ends the wait, every wait has a deadline, and the port is released.
@Suite("The loopback listener of the browser login")
struct LoopbackListenerTests {
    static func get(_ url: String) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 10)
        request.httpMethod = "GET"
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func otherRequestsAreRefusedAndTheAwaitedOneEndsTheWait() async throws {
        let listener = try LoopbackListener()
        #expect(listener.redirectURL.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        let base = "http://127.0.0.1:\(listener.port)"
        let wait = Task {
            try await listener.nextRequest(
                accepting: { $0.hasPrefix("/callback?") && $0.contains("state=right") },
                page: "<h1 id=\"status\">ok</h1>",
                until: ContinuousClock.now + .seconds(30)
            )
        }
        #expect(try await Self.get(base + "/favicon.ico") == 404)
        #expect(try await Self.get(base + "/callback?state=wrong&code=stolen") == 404, "a guess at the port")
        #expect(try await Self.get(base + "/callback?state=right&code=abc") == 200)
        #expect(try await wait.value == "/callback?state=right&code=abc")
        listener.close()
        await #expect(throws: (any Error).self, "the port is released") { try await Self.get(base + "/callback") }
    }

    @Test func theWaitEndsAtItsDeadlineAndOnCancellation() async throws {
        let listener = try LoopbackListener()
        let started = ContinuousClock.now
        let none = try await listener.nextRequest(accepting: { _ in true }, page: "", until: started + .milliseconds(300))
        #expect(none == nil && ContinuousClock.now - started < .seconds(10))
        let wait = Task { try await listener.nextRequest(accepting: { _ in true }, page: "", until: .now + .seconds(60)) }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
    }

    @Test func aBrowserOpensOnlyWhereThereIsOne() {
        #expect(LoopbackBrowser.opening(noBrowser: true, environment: ["DISPLAY": ":0"]) == .printOnly)
        #expect(
            LoopbackBrowser.opening(noBrowser: false, environment: ["GATEHOUSE_BROWSER": "python3 click.py allow"])
                == .command(["python3", "click.py", "allow"])
        )
        #if os(Linux)
        #expect(LoopbackBrowser.opening(noBrowser: false, environment: [:]) == .printOnly, "no display: print")
        #expect(LoopbackBrowser.opening(noBrowser: false, environment: ["DISPLAY": ":0"]) == .command(["xdg-open"]))
        #endif
    }
}
