import Foundation
import GatehouseServerSupport
import HTTPTypes
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: links in mail point at the server's public URL, and `GET /verify` sends browsers
/// only to the site or the allow list, as a URL it rebuilt itself.
@Suite("Links and redirects")
struct LinkAndRedirectTests {
    @Test func mailedLinksUseTheExternalURLAndLandOnTheSiteSignedIn() async throws {
        let harness = try await Harness.make {
            $0.apiExternalURL = "https://auth.example.com"
            $0.siteURL = "https://app.example.com"
        }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            #expect(try await client.post("/otp", #"{"email":"ada@example.com"}"#).status == .ok)
            _ = try await client.waitForCode(to: "ada@example.com")
            let body = try #require(await harness.mailer.sent.last?.body)
            let prefix = "https://auth.example.com/verify?token="
            let start = try #require(body.range(of: prefix))
            let link = String(body[start.lowerBound...].prefix { !$0.isWhitespace })
            #expect(link.contains("&type=magiclink&redirect_to=https%3A%2F%2Fapp%2Eexample%2Ecom"), "\(link)")

            // Following the link (on this server) signs in and lands on the site with the session.
            let followed = try await client.get(String(link.dropFirst("https://auth.example.com".count)))
            #expect(followed.status == .seeOther)
            #expect(followed.header("Location")?.hasPrefix("https://app.example.com#access_token=") == true)

            let generated = try await client.post(
                "/admin/generate_link",
                #"{"type":"magiclink","email":"ada@example.com"}"#,
                bearer: admin
            )
            #expect(generated.string("action_link")?.hasPrefix(prefix) == true, "not the bind address")
        }
        #expect(ServerConfiguration().externalURL == "http://127.0.0.1:9999")
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_API_EXTERNAL_URL": "auth.example.com"])
        }
    }

    @Test func verifyRedirectsOnlyToTheSiteOrTheAllowList() async throws {
        let harness = try await Harness.make {
            $0.siteURL = "http://localhost:3000"
            $0.uriAllowList = [RedirectPolicy.Entry("https://app.example.com/auth/*")!]
        }
        defer { harness.removeFiles() }
        let refused = [
            #"https://evil.example\@localhost:3000/"#, "https://evil.example/", "http://localhost:3001/",
            "https://localhost:3000/", "http://user@localhost:3000/", "http://evil.example@localhost:3000/",
            "http://localhost:3000/\r\nSet-Cookie: a=b", "http://localhost:3000/ x",
            "javascript:alert(1)//localhost:3000",
            "//evil.example", "http://lоcalhost:3000/", "http://localhost:3000\\evil.example",
            "https://app.example.com/other", "https://app.example.com:444/auth/x", "http://app.example.com/auth/x",
            "https://app.example.com/authx",
            // Issue 31, finding 9: dot segments, plain and percent-encoded, resolve outside /auth/.
            "https://app.example.com/auth/../../x", "https://app.example.com/auth/%2e%2e/x",
            "https://app.example.com/auth/%2E%2E/%2e%2e/x", "https://app.example.com/auth/.%2e/x",
            "https://app.example.com/auth/..", "https://app.example.com/auth/x/../../y",
        ]
        let allowed = [
            ("http://localhost:3000/welcome?x=1", "http://localhost:3000/welcome?x=1#"),
            ("http://LOCALHOST:3000", "http://localhost:3000#"),
            ("https://app.example.com/auth/callback", "https://app.example.com/auth/callback#"),
            ("https://app.example.com:443/auth/", "https://app.example.com/auth/#"),
            // Dot segments that stay inside the allowed path are resolved, not passed on.
            ("https://app.example.com/auth/./x/../callback", "https://app.example.com/auth/callback#"),
            ("https://app.example.com/other/../auth/cb", "https://app.example.com/auth/cb#"),
        ]
        try await harness.live { client in
            let location: @Sendable (String) async throws -> String = { redirect in
                let encoded = redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let reply = try await client.get("/verify?token=bogus&type=magiclink&redirect_to=\(encoded)")
                #expect(reply.status == .seeOther)
                return reply.header("Location") ?? ""
            }
            for redirect in refused {
                let target = try await location(redirect)
                #expect(target.hasPrefix("http://localhost:3000#error="), "\(redirect) → \(target)")
            }
            for (redirect, expected) in allowed {
                let target = try await location(redirect)
                #expect(target.hasPrefix(expected), "\(redirect) → \(target)")
            }
        }
        // RFC 3986 §5.2.4's own examples.
        #expect(RedirectPolicy.removingDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(RedirectPolicy.removingDotSegments("mid/content=5/../6") == "mid/6")
        #expect(RedirectPolicy.removingDotSegments("/../../g") == "/g")
        #expect(RedirectPolicy.removingDotSegments("/a/%2E%2e/b") == "/b")
        #expect(RedirectPolicy.Entry("https://app.example.com/*/x") == nil)
        #expect(RedirectPolicy.Entry("https://app.example.com/a*") == nil)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_URI_ALLOW_LIST": "https://user@app.example.com/*"])
        }
    }
}
