import Foundation
@testable import Gatehouse
import GatehouseTesting
import Testing

/// Sign-in through a provider's page (issue 36): the platform-neutral parts (PKCE, state, the
/// redirect's parsing, the outcome of Apple's sheet) and the whole path of
/// `AuthService.signIn(with:scopes:redirectTo:using:)` on the in-memory backend's simulated
/// provider, including the attacker's redirects.
@MainActor
@Suite("Signing in through a provider's page")
struct ProviderSignInTests {
    static let callback = URL(string: "myapp://auth-callback")!
    static let ada = InMemoryAuthBackend.ProviderAccount(subject: "gh-42", email: "ada@example.com")

    // MARK: - PKCE and the flow

    @Test func theChallengeIsBase64URLOfTheVerifiersSHA256() {
        // Computed independently: python3 hashlib.sha256 + base64.urlsafe_b64encode, unpadded.
        let known = PKCEVerifier(verifier: "dBjftJeZ4CVP-mJ92IqcpOQbvqxS3lyX-0DuO8eGZRo")
        #expect(known.challenge == "hXjdEqURdh2HEp8feYqt7qzhaoltbzhmfdZo89otdWY")
        let fresh = PKCEVerifier()
        #expect(fresh.verifier.count == 43)
        #expect(fresh.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(PKCEVerifier().verifier != fresh.verifier)
        #expect(fresh.challenge == PKCEVerifier(verifier: fresh.verifier).challenge)
    }

    @Test func aFlowAddsItsStateToTheRedirectAndRefusesMalformedInput() throws {
        let flow = try ProviderSignInFlow(
            provider: " GitHub ",
            scopes: ["repo", " read:org"],
            redirectTo: URL(string: "myapp://auth-callback?from=settings#drop")!
        )
        #expect(flow.provider == "github")
        #expect(flow.scopes == ["repo", "read:org"])
        #expect(flow.redirectURL.absoluteString == "myapp://auth-callback?from=settings&state=\(flow.state)")
        #expect(flow.state.count == 43)
        #expect(try ProviderSignInFlow(provider: "github", redirectTo: Self.callback).state != flow.state)
        for name in ["", "git hub", "../github", "github?x=1"] {
            #expect(throws: AuthError.self, "\(name)") {
                try ProviderSignInFlow(provider: name, redirectTo: Self.callback)
            }
        }
        #expect(throws: AuthError.self) { try ProviderSignInFlow(provider: "github", scopes: ["a b"], redirectTo: Self.callback) }
        #expect(throws: AuthError.self) { try ProviderSignInFlow(provider: "github", redirectTo: URL(string: "no-scheme")!) }
    }

    @Test func theRedirectIsReadOnlyWhenItIsThisFlowsOwn() throws {
        let flow = try ProviderSignInFlow(
            provider: "github",
            scopes: [],
            redirectTo: URL(string: "http://127.0.0.1:53682/callback")!,
            state: "the-state",
            pkce: PKCEVerifier()
        )
        let read = { (url: String) in try flow.result(of: URL(string: url)!) }
        #expect(try read("http://127.0.0.1:53682/callback?state=the-state&code=abc") == .code("abc"))
        #expect(
            try read("http://127.0.0.1:53682/callback?state=the-state&error=access_denied&error_code=access_denied")
                == .declined
        )
        // The attacker's redirects: another state, none, another port or path, a code without state.
        for forged in [
            "http://127.0.0.1:53682/callback?state=other&code=abc",
            "http://127.0.0.1:53682/callback?code=abc",
            "http://127.0.0.1:53683/callback?state=the-state&code=abc",
            "http://127.0.0.1:53682/other?state=the-state&code=abc",
            "https://127.0.0.1:53682/callback?state=the-state&code=abc",
        ] {
            let error = #expect(throws: AuthError.self, "\(forged)") { _ = try read(forged) }
            #expect(error?.code == .badOAuthState, "\(forged)")
        }
        let failed = #expect(throws: AuthError.self) {
            try read("http://127.0.0.1:53682/callback?state=the-state&error=invalid_request&error_code=email_exists&error_description=An+account+has+it")
        }
        #expect(failed?.code == .emailExists && failed?.message == "An account has it")
        let empty = #expect(throws: AuthError.self) { try read("http://127.0.0.1:53682/callback?state=the-state") }
        #expect(empty?.code == .invalidResponse)
    }

    @Test func theSheetsCompletionMeansARedirectAClosedSheetOrAnError() throws {
        let url = URL(string: "myapp://auth-callback?code=1")!
        #expect(try BrowserRedirect.webAuthenticationSession(callback: url, errorCode: nil, underlying: nil).get() == .redirected(url))
        #expect(try BrowserRedirect.webAuthenticationSession(callback: nil, errorCode: 1, underlying: "x").get() == .closed)
        for code in [2, 3, nil] {
            #expect(throws: AuthError.self) {
                try BrowserRedirect.webAuthenticationSession(callback: nil, errorCode: code, underlying: nil).get()
            }
        }
    }

    // MARK: - The whole path, on the simulated provider

    @Test func consentSignsInAndTheSameSubjectSignsIntoTheSameAccount() async throws {
        let fixture = Fixture()
        let browser = InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(Self.ada))
        let outcome = try await fixture.service.signIn(with: "github", scopes: ["repo"], redirectTo: Self.callback, using: browser)
        guard case .signedIn(let user) = outcome else {
            Issue.record("expected a sign-in, got \(outcome)")
            return
        }
        #expect(user.email == "ada@example.com" && user.identities.map(\.provider) == ["github"])
        #expect(fixture.service.currentUser == user && fixture.store.storedSession?.user == user)
        #expect(await fixture.backend.callCount(.exchangeAuthCode) == 1)

        await fixture.service.signOut()
        let again = try await fixture.service.signIn(
            with: "github",
            redirectTo: Self.callback,
            using: InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(.init(subject: "gh-42")))
        )
        let current = try #require(fixture.service.currentUser)
        #expect(again == .signedIn(current) && current.id == user.id)
    }

    @Test func closingTheBrowserOrDecliningIsCancelledNotAnError() async throws {
        let fixture = Fixture()
        for choice in [InMemoryProviderBrowser.Choice.close, .decline] {
            let outcome = try await fixture.service.signIn(
                with: "github",
                redirectTo: Self.callback,
                using: InMemoryProviderBrowser(backend: fixture.backend, choice: choice)
            )
            #expect(outcome == .cancelled)
            #expect(fixture.service.currentUser == nil && fixture.service.operationStatus == .success)
        }
        #expect(await fixture.backend.callCount(.exchangeAuthCode) == 0)
    }

    @Test func aForgedRedirectIsRefusedAndItsCodeNeverExchanged() async throws {
        let fixture = Fixture()
        // A redirect whose state was swapped (a login CSRF: someone else's code pushed at the app).
        let browser = InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(Self.ada)) { url in
            URL(string: url.absoluteString.replacingOccurrences(of: "state=", with: "state=x"))!
        }
        let error = await #expect(throws: AuthError.self) {
            try await fixture.service.signIn(with: "github", redirectTo: Self.callback, using: browser)
        }
        #expect(error?.code == .badOAuthState)
        #expect(fixture.service.currentUser == nil)
        #expect(await fixture.backend.callCount(.exchangeAuthCode) == 0)
    }

    @Test func anUnvouchedAddressOfAnotherAccountComesBackAsEmailExists() async throws {
        let fixture = Fixture()
        await fixture.backend.seedUser(email: "ada@example.com", password: "correct horse battery")
        let unverified = InMemoryAuthBackend.ProviderAccount(subject: "gh-7", email: "ada@example.com", emailVerified: false)
        let error = await #expect(throws: AuthError.self) {
            try await fixture.service.signIn(
                with: "github",
                redirectTo: Self.callback,
                using: InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(unverified))
            )
        }
        #expect(error?.code == .emailExists)
        let vouched = try await fixture.service.signIn(
            with: "github",
            redirectTo: Self.callback,
            using: InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(.init(subject: "gh-7", email: "ada@example.com")))
        )
        #expect(fixture.service.currentUser?.identities.map(\.provider).contains("github") == true && vouched != .cancelled)
    }

    @Test func anUnknownProviderIsRefusedBeforeAnyBrowserOpens() async throws {
        let fixture = Fixture()
        let browser = InMemoryProviderBrowser(backend: fixture.backend, choice: .consent(Self.ada))
        let error = await #expect(throws: AuthError.self) {
            try await fixture.service.signIn(with: "gitlab", redirectTo: Self.callback, using: browser)
        }
        #expect(error?.code == .validationFailed && browser.opened.isEmpty)
    }

    @Test func theCodeWorksOnceWithItsVerifierWithinTenMinutes() async throws {
        let fixture = Fixture()
        let backend = fixture.backend
        func consented() async throws -> (ProviderSignInFlow, String) {
            let flow = try ProviderSignInFlow(provider: "github", redirectTo: Self.callback)
            let page = try await backend.providerSignInURL(for: flow)
            guard case .code(let code) = try flow.result(of: try await backend.consent(at: page, as: Self.ada)) else {
                throw AuthError.invalidResponse()
            }
            // The page is spent: a second consent on it is a stale state.
            let replay = await #expect(throws: AuthError.self) { try await backend.consent(at: page, as: Self.ada) }
            #expect(replay?.code == .badOAuthState)
            return (flow, code)
        }
        let (flow, code) = try await consented()
        let wrong = await #expect(throws: AuthError.self) { try await backend.exchangeAuthCode(code, verifier: PKCEVerifier().verifier) }
        #expect(wrong?.code == .badCodeVerifier)
        _ = try await backend.exchangeAuthCode(code, verifier: flow.pkce.verifier)
        let replayed = await #expect(throws: AuthError.self) { try await backend.exchangeAuthCode(code, verifier: flow.pkce.verifier) }
        #expect(replayed?.code == .flowStateNotFound)

        let (late, lateCode) = try await consented()
        fixture.clock.advance(by: 601)
        let expired = await #expect(throws: AuthError.self) { try await backend.exchangeAuthCode(lateCode, verifier: late.pkce.verifier) }
        #expect(expired?.code == .flowStateExpired)
    }
}
