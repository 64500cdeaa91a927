import Foundation
import HTTPTypes
import Logging
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 30: an Apple sign-in without its `authorization_code` is answered normally, and the
/// log says, once per client id, that Apple's tokens cannot be revoked for it.
@Suite("Apple sign-ins without the authorization code")
struct AppleMissingCodeTests {
    static let client = IDTokenTests.appleClient

    @Test func aCodeLessSignInIsAnsweredAndLoggedOncePerClientID() async throws {
        let lines = LogTests.Lines()
        var logger = Logger(label: "gatehouse") { JSONLogHandler(label: $0, sink: lines.append) }
        logger.logLevel = .info
        let clock = TestClock()
        let apple = try await FakeApple(clientID: Self.client, clock: clock.now)
        let harness = try await Harness.make(clock: clock, logger: logger) { configuration in
            configuration.apple = IdentityProviderSettings(clientIDs: [Self.client], jwksURL: apple.provider.url)
            configuration.appleBaseURL = apple.provider.baseURL
            configuration.appleAccount = apple.account
        }
        defer { harness.removeFiles() }
        do {
            try await harness.live { client in
                let first = try await AppleTokenTests.signIn(client, apple, harness, subject: "apple-1", code: nil)
                #expect(first.status == .ok, "\(first.text)")
                let second = try await AppleTokenTests.signIn(client, apple, harness, subject: "apple-2", code: "")
                #expect(second.status == .ok, "\(second.text)")
                let withCode = try await AppleTokenTests.signIn(
                    client,
                    apple,
                    harness,
                    subject: "apple-3",
                    code: apple.issueCode(subject: "apple-3")
                )
                #expect(withCode.status == .ok, "\(withCode.text)")
            }
        } catch {
            await apple.stop()
            throw error
        }
        await apple.stop()

        let notices = lines.objects.filter {
            ($0["message"] as? String)?.contains("without authorization_code") == true
        }
        #expect(notices.count == 1, "once per client id")
        #expect(notices.first?["apple.client_id"] as? String == Self.client)
        #expect(notices.first?["level"] as? String == "warning")
        #expect(apple.exchanges == 1, "only the sign-in with a code was exchanged")
    }

    @Test func eachClientIDIsNotedOnce() {
        let lines = LogTests.Lines()
        let notice = MissingCodeNotice(logger: Logger(label: "t") { JSONLogHandler(label: $0, sink: lines.append) })
        notice.note(clientID: "com.example.app")
        notice.note(clientID: "com.example.app")
        notice.note(clientID: "com.example.web")
        #expect(
            lines.objects.compactMap { $0["apple.client_id"] as? String } == ["com.example.app", "com.example.web"]
        )
    }
}
