import Foundation
import NIOCore
import NIOPosix
import Testing

/// The tests' own HTTP clients give up on a server that accepts a request and never answers
/// (issue 32: HummingbirdTesting's read timeout cannot, so one hung request once stalled a
/// whole test run).
@Suite("Test clients' deadlines")
struct ClientDeadlineTests {
    @Test func aServerThatNeverAnswersGivesStatusZeroWithinTheTimeout() async throws {
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = try #require(silent.localAddress?.port)
        let start = ContinuousClock.now
        let answer = await HTTPClient(timeout: .seconds(1)).send(
            "POST",
            try #require(URL(string: "http://127.0.0.1:\(port)/signup")),
            json: "{}"
        )
        let waited = ContinuousClock.now - start
        #expect(answer.status == 0)
        #expect(waited < .seconds(90), "gave up (a client without the deadline waits forever): \(waited)")
        try await silent.close()
    }
}
