import Foundation
import Gatehouse
import GatehouseGoTrue
import GatehouseTesting
import Testing

/// Two-factor sign-in through the SDK and `GoTrueBackend` against the real server: enrol, sign
/// out, sign in, the gate asks for the factor, verify, the gate lets the user in.
@MainActor
@Suite(
    "SDK two-factor sign-in against the real server",
    .serialized,
    .enabled(if: EndToEnd.enabled, "set GATEHOUSE_SERVER_BIN (scripts/test does)")
)
struct SDKTwoFactorEndToEndTests {
    @Test func enrolSignOutSignInTheGateAsksForTheCodeVerifyAndTheGateLetsTheUserIn() async throws {
        let server = try await EndToEndServer(environment: ["GATEHOUSE_MAILER_AUTOCONFIRM": "true"])
        defer { server.stop() }
        let store = FileSessionStore(fileURL: server.directory.appendingPathComponent("client/session.json"))
        func service() -> AuthService {
            AuthService(
                backend: GoTrueBackend(url: server.url),
                store: store,
                configuration: .init(verificationRetryDelays: [])
            )
        }
        let auth = service()
        await auth.restoreSession()
        try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
        let enrolment = try await auth.mfa.enrollTOTP(friendlyName: "iPhone")
        #expect(enrolment.qrCodeSVG.contains("<svg") && enrolment.uri.contains(enrolment.secret))
        #expect(auth.mfa.factors.map(\.friendlyName) == ["iPhone"])
        let app = AuthenticatorApp(base32: enrolment.secret)
        let first = app.code(at: Date())
        try await auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: first)
        #expect(auth.mfa.assuranceLevel == AssuranceLevel(current: .aal2, next: .aal2))
        #expect(auth.isAuthenticated)

        await auth.signOut()
        let user = try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
        #expect(auth.state == .secondFactorRequired(user))
        #expect(!auth.isAuthenticated)
        #expect(AuthGate.gate.route(for: auth.session, assurance: auth.assuranceLevel) == .secondFactor(user))

        // A relaunch keeps the second factor due.
        let relaunched = service()
        await relaunched.restoreSession()
        #expect(relaunched.state.isSecondFactorRequired)

        // The code accepted before is refused; the app's next one lets the user in.
        do {
            try await relaunched.mfa.challengeAndVerify(factorID: enrolment.factorID, code: first)
            Issue.record("a used code must be refused")
        } catch let error as AuthError {
            #expect(error.code == .mfaVerificationFailed)
        }
        try await relaunched.mfa.challengeAndVerify(factorID: enrolment.factorID, code: app.code(at: Date(), steps: 1))
        let signedIn = try #require(relaunched.currentUser)
        #expect(relaunched.isAuthenticated)
        #expect(
            AuthGate.gate.route(for: relaunched.session, assurance: relaunched.assuranceLevel) == .content(signedIn)
        )
        try await relaunched.refreshSession()
        #expect(relaunched.assuranceLevel?.current == .aal2, "the level survives refresh")
    }
}
