import Foundation
import Gatehouse
import GatehouseCLI
import Testing

@Suite("CLI building blocks")
struct CLIUnitTests {
    @Test func serverComesFromTheFlagThenTheEnvironmentThenTheDefault() throws {
        #expect(
            try ServerLocation(flag: "http://a:1", environment: ["GATEHOUSE_URL": "http://b:2"]).url.absoluteString
                == "http://a:1"
        )
        #expect(
            try ServerLocation(flag: nil, environment: ["GATEHOUSE_URL": "http://b:2"]).url.absoluteString
                == "http://b:2"
        )
        #expect(try ServerLocation(flag: nil, environment: [:]).url.absoluteString == "http://127.0.0.1:9999")
        #expect(throws: CLIError.self) { try ServerLocation(flag: "ftp://x", environment: [:]) }
        #expect(throws: CLIError.self) { try ServerLocation(flag: "not a url", environment: [:]) }
    }

    @Test func eachServerHasItsOwnSafeSessionName() throws {
        let local = try ServerLocation(flag: "http://127.0.0.1:9999", environment: [:])
        let hosted = try ServerLocation(flag: "https://xyz.supabase.co/auth/v1", environment: [:])
        #expect(local.sessionName == "session-127.0.0.1_9999")
        #expect(hosted.sessionName == "session-xyz.supabase.co_auth_v1")
        #expect(!hosted.sessionName.contains("/"))
    }

    @Test func errorsMapToTheDocumentedExitCodes() {
        #expect(CLIError(AuthError.notSignedIn()).status == .notSignedIn)
        #expect(CLIError(AuthError(code: .sessionNotFound, message: "gone")).status == .notSignedIn)
        #expect(CLIError(AuthError.validationFailed("bad")).status == .usage)
        #expect(CLIError(AuthError.invalidCredentials()).status == .failure)
        #expect(CLIError(AuthError.networkUnavailable()).status == .failure)
        #expect(CLIError.ExitStatus.notSignedIn.rawValue == 3)
        #expect(CLIError.ExitStatus.usage.rawValue == 2)
    }

    @Test func statusTextSaysWhoAndWhen() {
        let now = Date(timeIntervalSince1970: 1_000)
        let report = StatusReport(
            server: "http://127.0.0.1:9999",
            signedIn: true,
            guest: true,
            userID: "u1",
            email: nil,
            accessTokenExpiresAt: now.addingTimeInterval(125),
            verified: false
        )
        let text = report.text(now: now)
        #expect(text.contains("as a guest (guest)"))
        #expect(text.contains("expires in 2 min 5 s"))
        #expect(text.contains("verified: no"))
        #expect(
            StatusReport(
                server: "s",
                signedIn: false,
                guest: false,
                userID: nil,
                email: nil,
                accessTokenExpiresAt: nil,
                verified: false
            )
            .text().contains("gatehouse login")
        )
        #expect(report.exitStatus == nil)
        let signedOut = StatusReport(
            server: "s",
            signedIn: false,
            guest: false,
            userID: nil,
            email: nil,
            accessTokenExpiresAt: nil,
            verified: false
        )
        #expect(signedOut.exitStatus == .notSignedIn)
        var unreadable = signedOut
        unreadable.error = "unreadable"
        #expect(unreadable.exitStatus == .failure)
    }

    @Test func jsonOutputUsesSnakeCaseAndISODates() {
        let report = StatusReport(
            server: "s",
            signedIn: true,
            guest: false,
            userID: "u1",
            email: "ada@example.com",
            accessTokenExpiresAt: Date(timeIntervalSince1970: 1_700_000_000),
            verified: true,
            account: AccountStatus(kind: .signedIn, maskedIdentifier: "a•••@example.com", isConfirmedByServer: true)
        )
        let json = JSONOutput.render(report)
        #expect(json.contains(#""kind":"signed_in""#))
        #expect(json.contains(#""masked_identifier":"a•••@example.com""#))
        #expect(json.contains(#""confirmed_by_server":true"#))
        #expect(report.text().contains("account:  Signed in · a•••@example.com · confirmed by the server"))
        #expect(json.contains(#""signed_in":true"#))
        #expect(json.contains(#""access_token_expires_at":"2023-11-14T22:13:20.000Z""#))
        #expect(JSONOutput.render(CLIError.usage("bad")).contains(#""code":"validation_failed""#))
    }
}
