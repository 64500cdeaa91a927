import Foundation
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// PKCE for the e-mail flows, as GoTrue has it (issue 36): `/signup`, `/otp`, `/recover`,
/// `/resend` and `PUT /user` take a `code_challenge`; the mailed link (`pkce_…`) opens
/// `GET /verify`, which sends the browser to the app with `?code=`, and only the holder of the
/// verifier turns the code into a session. A link opened on another device gives it nothing.
@Suite("PKCE for the e-mail flows")
struct EmailPKCETests {
    static let app = "https://app.example.com/auth/callback"

    static func harness() async throws -> Harness {
        try await Harness.make {
            $0.apiExternalURL = "https://auth.example.com"
            $0.siteURL = "https://app.example.com"
        }
    }

    /// The link of the newest mail to `email` with `subject` (or any), as a path on the server.
    static func link(
        to email: String,
        subject: String? = nil,
        after count: Int = 0,
        _ client: Client
    ) async throws
        -> String
    {
        for _ in 0..<500 {
            let mails = await client.mailer.sent.filter { $0.to == email && (subject == nil || $0.subject == subject) }
            if mails.count > count, let body = mails.last?.body,
                let start = body.range(of: "https://auth.example.com/verify?")
            {
                return "/verify?" + body[start.upperBound...].prefix { !$0.isWhitespace }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError.noMail(email)
    }

    /// `"code_challenge":…,"code_challenge_method":"s256"`, to splice into a JSON body.
    static func fields(_ pkce: PKCEPair) -> String {
        #""code_challenge":"\#(pkce.challenge)","code_challenge_method":"s256""#
    }

    /// Opens the link as a browser does and returns where it goes.
    static func open(_ link: String, _ client: Client) async throws -> String {
        let opened = try await client.get(link)
        #expect(opened.status == .seeOther)
        return try #require(opened.header("Location"))
    }

    @Test func aSignUpLinkGivesTheAppACodeThatOnlyItsVerifierExchanges() async throws {
        let harness = try await Self.harness()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let pkce = PKCEPair()
            let signup = try await client.post(
                "/signup?redirect_to=\(Self.app)",
                #"{"email":"ada@example.com","password":"correct horse battery",\#(Self.fields(pkce))}"#
            )
            #expect(signup.status == .ok && signup["access_token"] == nil, "\(signup.text)")
            let link = try await Self.link(to: "ada@example.com", client)
            #expect(link.contains("token=pkce_"), "GoTrue's PKCE link: \(link)")
            let landed = try await Self.open(link, client)
            #expect(landed.hasPrefix(Self.app + "?code="), "\(landed)")
            #expect(!landed.contains("access_token") && !landed.contains("refresh_token"))
            let code = try #require(TestBrowser.fields(of: landed)["code"])
            let session = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(code)","code_verifier":"\#(pkce.verifier)"}"#
            )
            #expect(session.status == .ok, "\(session.text)")
            #expect((session.user["email_confirmed_at"] as? String) != nil)
            #expect(amrMethods(session.string("access_token")) == ["email/signup"])
            #expect(session["provider_token"] == nil)
            // The password the sign-up set is the account's (the link proved the address).
            #expect(try await client.signIn("ada@example.com").status == .ok)
        }
    }

    @Test func theLinkOpenedOnAnotherDeviceGivesThatDeviceNoSession() async throws {
        let harness = try await Self.harness()
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.confirmedSession(email: "ada@example.com")
            let pkce = PKCEPair()
            let otp = try await client.post(
                "/otp?redirect_to=\(Self.app)",
                #"{"email":"ada@example.com",\#(Self.fields(pkce))}"#
            )
            #expect(otp.status == .ok)
            let link = try await Self.link(to: "ada@example.com", subject: "Your sign-in code", client)
            // Another device (a mail scanner, a phone) opens the link: it lands with a code only.
            let elsewhere = try await Self.open(link, client)
            #expect(!elsewhere.contains("access_token"), "\(elsewhere)")
            let code = try #require(TestBrowser.fields(of: elsewhere)["code"])
            for verifier in ["", PKCEPair().verifier, pkce.challenge] {
                let stolen = try await client.post(
                    "/token?grant_type=pkce",
                    #"{"auth_code":"\#(code)","code_verifier":"\#(verifier)"}"#
                )
                #expect(stolen["access_token"] == nil && stolen.status.code >= 400, "\(verifier): \(stolen.text)")
            }
            // The link works once: opened again, it is spent.
            let again = try await Self.open(link, client)
            #expect(TestBrowser.fields(of: again)["error_code"] == "otp_expired", "\(again)")
            #expect(TestBrowser.fields(of: again, fragment: true)["error_code"] == "otp_expired")
            // The app that asked, holding the verifier, signs in.
            let mine = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(code)","code_verifier":"\#(pkce.verifier)"}"#
            )
            #expect(mine.status == .ok, "\(mine.text)")
            #expect(amrMethods(mine.string("access_token")) == ["otp"])
        }
    }

    @Test func theCodeTypedIntoTheAppStillSignsInAtOnce() async throws {
        let harness = try await Self.harness()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let pkce = PKCEPair()
            _ = try await client.post(
                "/signup?redirect_to=\(Self.app)",
                #"{"email":"typed@example.com","password":"correct horse battery",\#(Self.fields(pkce))}"#
            )
            let code = try await client.waitForCode(to: "typed@example.com")
            let verified = try await client.post(
                "/verify",
                #"{"type":"signup","email":"typed@example.com","token":"\#(code)"}"#
            )
            #expect(
                verified.status == .ok && verified["access_token"] != nil,
                "whoever reads the mail proves the address"
            )
        }
    }

    @Test func recoveryAndResendAndAnAddressChangeTakeAChallengeToo() async throws {
        let harness = try await Self.harness()
        defer { harness.removeFiles() }
        try await harness.live { client in
            // Recovery.
            _ = try await client.confirmedSession(email: "rec@example.com")
            let recovery = PKCEPair()
            #expect(
                try await client.post(
                    "/recover?redirect_to=\(Self.app)",
                    #"{"email":"rec@example.com",\#(Self.fields(recovery))}"#
                )
                .status == .ok
            )
            let recoveryLink = try await Self.link(to: "rec@example.com", subject: "Reset your password", client)
            let recovered = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(try #require(TestBrowser.fields(of: try await Self.open(recoveryLink, client))["code"]))","code_verifier":"\#(recovery.verifier)"}"#
            )
            #expect(amrMethods(recovered.string("access_token")) == ["recovery"], "\(recovered.text)")

            // A resent sign-up code.
            _ = try await client.post("/signup", #"{"email":"res@example.com","password":"correct horse battery"}"#)
            harness.clock.advance(by: 61)
            let resend = PKCEPair()
            #expect(
                try await client.post(
                    "/resend?redirect_to=\(Self.app)",
                    #"{"type":"signup","email":"res@example.com",\#(Self.fields(resend))}"#
                )
                .status == .ok
            )
            let resendLink = try await Self.link(to: "res@example.com", after: 1, client)
            #expect(resendLink.contains("token=pkce_"))
            let resent = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(try #require(TestBrowser.fields(of: try await Self.open(resendLink, client))["code"]))","code_verifier":"\#(resend.verifier)"}"#
            )
            #expect(resent.status == .ok, "\(resent.text)")

            // An address change: both links, the second finishes with a code.
            let session = try await client.confirmedSession(email: "old@example.com")
            let change = PKCEPair()
            let update = try await client.send(
                .put,
                "/user?redirect_to=\(Self.app)",
                json: #"{"email":"new@example.com",\#(Self.fields(change))}"#,
                bearer: session.string("access_token")
            )
            #expect(update.status == .ok, "\(update.text)")
            let newSide = try await Self.link(to: "new@example.com", client)
            let oldSide = try await Self.link(
                to: "old@example.com",
                subject: "Confirm the change of your e-mail address",
                client
            )
            let first = try await Self.open(newSide, client)
            #expect(
                TestBrowser.fields(of: first)["message"]?.hasPrefix("Confirmation link accepted") == true,
                "\(first)"
            )
            let second = try await Self.open(oldSide, client)
            let changed = try await client.post(
                "/token?grant_type=pkce",
                #"{"auth_code":"\#(try #require(TestBrowser.fields(of: second)["code"], "\(second)"))","code_verifier":"\#(change.verifier)"}"#
            )
            #expect(changed.user["email"] as? String == "new@example.com", "\(changed.text)")
            #expect(amrMethods(changed.string("access_token")) == ["email_change"])
        }
    }

    @Test func aMalformedChallengeIsRefusedBeforeAnythingIsMailed() async throws {
        let harness = try await Self.harness()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let short = try await client.post(
                "/signup",
                #"{"email":"x@example.com","password":"correct horse battery","code_challenge":"short","code_challenge_method":"s256"}"#
            )
            #expect(short.status == .badRequest && short.errorCode == "validation_failed")
            let noMethod = try await client.post(
                "/otp",
                #"{"email":"x@example.com","code_challenge":"\#(PKCEPair().challenge)"}"#
            )
            #expect(noMethod.status == .badRequest)
            #expect(await client.mailCount(to: "x@example.com") == 0)
        }
    }
}
