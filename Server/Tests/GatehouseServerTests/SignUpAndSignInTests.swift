import Foundation
import GatehouseFlows
import GatehouseServer
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Sign-up and password sign-in")
struct SignUpAndSignInTests {
    @Test func signUpNeedsTheEmailedCodeThenSignsIn() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let signup = try await client.post(
                "/signup",
                #"{"email":"Ada@Example.com","password":"correct horse battery"}"#
            )
            #expect(signup.status == .ok)
            #expect(signup["access_token"] == nil, "autoconfirm is off by default")
            #expect(signup.string("email") == "ada@example.com")
            #expect(signup.string("confirmation_sent_at") != nil)

            let early = try await client.signIn("ada@example.com")
            #expect(early.status == .badRequest)
            #expect(early.errorCode == "email_not_confirmed")

            let code = try await client.waitForCode(to: "ada@example.com")
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            let verified = try await client.post(
                "/verify",
                #"{"type":"signup","email":"ada@example.com","token":"\#(code)"}"#
            )
            #expect(verified.status == .ok)
            #expect(verified.string("token_type") == "bearer")
            #expect(verified["expires_in"] as? Int == 3600)
            #expect(verified.user["id"] as? String == signup.string("id"))

            let session = try await client.signIn("ada@example.com")
            #expect(session.status == .ok)
            let me = try await client.get("/user", bearer: session.string("access_token"))
            #expect(me.string("email") == "ada@example.com")
            #expect(me.string("email_confirmed_at") != nil)
        }
    }

    @Test func autoconfirmSignsInAtOnceAndRefusesADuplicate() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let first = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            #expect(first.status == .ok)
            #expect(first.string("access_token") != nil)
            let again = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"another good phrase"}"#
            )
            #expect(again.status == .unprocessableContent)
            #expect(again.errorCode == "user_already_exists")
        }
    }

    @Test func signUpOfARegisteredAddressRevealsNothing() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let realID = session.user["id"] as? String
            let first = try await client.post("/signup", #"{"email":"ada@example.com","password":"whatever phrase 1"}"#)
            let second = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"whatever phrase 1"}"#
            )
            #expect(first.status == .ok && second.status == .ok)
            #expect(first.string("id") != realID)
            #expect(first.string("id") != second.string("id"), "a fabricated id differs per call")
            #expect(await client.mailCount(to: "ada@example.com") == 1, "no mail to the registered address")
        }
    }

    @Test func unknownEmailAndWrongPasswordGetTheSameAnswer() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            _ = try await client.post("/signup", #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let wrong = try await client.signIn("ada@example.com", "wrong password")
            let unknown = try await client.signIn("nobody@example.com", "wrong password")
            #expect(wrong.status == .badRequest)
            #expect(wrong.status == unknown.status)
            #expect(wrong.text == unknown.text)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(wrong.header("x-sb-error-code") == "invalid_credentials")
        }
    }

    @Test(arguments: [
        ("short1", "length"),
        (String(repeating: "a", count: 73), "length"),
        ("password123", "pwned"),
        ("qwertyuiop", "pwned"),
    ])
    func weakPasswordsAreRefused(password: String, reason: String) async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let reply = try await client.post("/signup", #"{"email":"ada@example.com","password":"\#(password)"}"#)
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorCode == "weak_password")
            #expect((reply["weak_password"] as? [String: Any])?["reasons"] as? [String] == [reason])
        }
    }

    @Test func aPasswordWithANulByteIsRefusedAndLongOnesAreNeverTruncated() async throws {
        let harness = try await Harness.make { $0.mailerAutoconfirm = true }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let nul = try await client.post("/signup", #"{"email":"nul@example.com","password":"abcdefgh\u0000ijkl"}"#)
            #expect(nul.status == .unprocessableContent)
            let exact72 = String(repeating: "é", count: 36)  // 72 bytes
            let ok = try await client.post("/signup", #"{"email":"long@example.com","password":"\#(exact72)"}"#)
            #expect(ok.status == .ok)
            let longer = exact72 + "x"
            let signIn = try await client.signIn("long@example.com", longer)
            #expect(signIn.status == .badRequest, "73 bytes never matches a 72-byte password")
        }
    }

    @Test func storedHashesAreBcryptCost10ByDefault() async throws {
        let harness = try await Harness.make {
            $0.bcryptCost = ServerConfiguration().bcryptCost
            $0.mailerAutoconfirm = true
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let reply = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            #expect(reply.status == .ok)
        }
        let database = try await harness.databaseText()
        #expect(database.contains("$2b$10$"))
        #expect(!database.contains("correct horse battery"))
    }

    @Test func aBanThatLandsWhileTheBcryptCheckRunsWins() async throws {
        // bcrypt runs outside any transaction. A slow cost keeps one sign-in inside its check
        // long enough for an admin ban to land; the sign-in must not succeed, nor write the
        // user back as it read it before the ban.
        let harness = try await Harness.make {
            $0.bcryptCost = 13
            $0.mailerAutoconfirm = true
        }
        defer { harness.removeFiles() }
        let admin = try await harness.server.serviceRoleToken()
        try await harness.live { client in
            let signedUp = try await client.post(
                "/signup",
                #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            let id = try #require(signedUp.user["id"] as? String)
            // The racing sign-in goes over a connection of its own (the test client has one).
            let port = try #require(client.client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/token?grant_type=password"))
            async let racing = HTTPClient().send(
                "POST",
                url,
                json: #"{"email":"ada@example.com","password":"correct horse battery"}"#
            )
            try await Task.sleep(for: .milliseconds(150))
            let banned = try await client.send(
                .put,
                "/admin/users/\(id)",
                json: #"{"ban_duration":"24h"}"#,
                bearer: admin
            )
            #expect(banned.status == .ok)
            let answer = await racing
            #expect(answer.status == 400, "the sign-in that was checking its password when the ban landed fails")
            #expect(answer.string("error_code") == "user_banned")
            let stored = try await client.get("/admin/users/\(id)", bearer: admin)
            #expect(stored.string("banned_until") != nil, "the ban is still stored")
            #expect(try await client.signIn("ada@example.com").errorCode == "user_banned")
        }
    }
}
