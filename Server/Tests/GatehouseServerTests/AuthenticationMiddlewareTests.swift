import Foundation
import GatehouseServer
import GatehouseServerSupport
import HTTPTypes
import Testing

/// The authenticating middleware and the child contexts (``CallerRequestContext``,
/// ``AdminRequestContext``) guard every route that needs them, and only those.
@Suite("Caller and admin middleware")
struct AuthenticationMiddlewareTests {
    static let callerRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/user"), (.put, "/user"), (.delete, "/user"), (.post, "/logout"), (.get, "/reauthenticate"),
        (.delete, "/user/identities/\(UUID().uuidString)"), (.get, "/user/sessions"),
        (.delete, "/user/sessions/\(UUID().uuidString)"), (.get, "/user/identities/authorize?provider=github"),
        (.post, "/factors"), (.post, "/factors/\(UUID().uuidString)/challenge"),
        (.post, "/factors/\(UUID().uuidString)/verify"), (.delete, "/factors/\(UUID().uuidString)"),
        (.post, "/passkeys/registration/options"), (.post, "/passkeys/registration/verify"), (.get, "/passkeys"),
        (.patch, "/passkeys/\(UUID().uuidString)"), (.delete, "/passkeys/\(UUID().uuidString)"),
    ]
    static let adminRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/admin/users"), (.post, "/admin/users"), (.get, "/admin/users/\(UUID().uuidString)"),
        (.put, "/admin/users/\(UUID().uuidString)"), (.delete, "/admin/users/\(UUID().uuidString)"),
        (.post, "/invite"), (.post, "/admin/generate_link"), (.get, "/admin/users/\(UUID().uuidString)/sessions"),
        (.delete, "/admin/users/\(UUID().uuidString)/sessions/\(UUID().uuidString)"),
        (.get, "/admin/users/\(UUID().uuidString)/factors"),
        (.delete, "/admin/users/\(UUID().uuidString)/factors/\(UUID().uuidString)"),
        (.get, "/admin/users/\(UUID().uuidString)/passkeys"),
        (.delete, "/admin/users/\(UUID().uuidString)/passkeys/\(UUID().uuidString)"),
    ]

    @Test func everyGuardedRouteWantsABearerAndAdminRoutesWantAnAdmin() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let session = try await client.confirmedSession(email: "ada@example.com")
            let access = try #require(session.string("access_token"))
            for (method, path) in Self.callerRoutes + Self.adminRoutes {
                let none = try await client.send(method, path, json: "{}")
                #expect(none.status == .unauthorized, "\(method) \(path)")
                #expect(none.errorCode == "no_authorization", "\(method) \(path)")
                let basic = try await client.send(method, path, json: "{}", headers: ["Authorization": "Basic abc"])
                #expect(basic.errorCode == "no_authorization", "\(method) \(path): only a bearer counts")
                let garbage = try await client.send(method, path, json: "{}", bearer: "not.a.jwt")
                #expect(garbage.status == .forbidden && garbage.errorCode == "bad_jwt", "\(method) \(path)")
            }
            for (method, path) in Self.adminRoutes {
                let user = try await client.send(method, path, json: "{}", bearer: access)
                #expect(user.errorCode == "not_admin", "\(method) \(path): a user's token is not an admin's")
            }
            #expect(try await client.get("/user", bearer: access).status == .ok)
            // An admin key speaks for no user: it opens no caller's route.
            let admin = try await harness.server.serviceRoleToken()
            for (method, path) in Self.callerRoutes {
                let reply = try await client.send(method, path, json: "{}", bearer: admin)
                #expect(reply.status == .forbidden && reply.errorCode == "bad_jwt", "\(method) \(path): \(reply.text)")
            }
            #expect(try await client.get("/admin/users", bearer: admin).status == .ok)
        }
    }

    @Test func anIDTokenVerifiesTheBearerOnlyWhenItLinks() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let grant = "/token?grant_type=id_token"
            // Without link_identity an API key in Authorization is not a caller: no provider is
            // enabled here, so the answer is about the provider.
            let plain = try await client.post(
                grant,
                #"{"provider":"apple","id_token":"x","nonce":"n"}"#,
                bearer: "an-api-key"
            )
            #expect(plain.errorCode == "provider_disabled", "\(plain.text)")
            let linkWithout = try await client.post(
                grant,
                #"{"provider":"apple","id_token":"x","nonce":"n","link_identity":true}"#
            )
            #expect(linkWithout.status == .unauthorized && linkWithout.errorCode == "no_authorization")
            let linkGarbage = try await client.post(
                grant,
                #"{"provider":"apple","id_token":"x","nonce":"n","link_identity":true}"#,
                bearer: "an-api-key"
            )
            #expect(linkGarbage.errorCode == "bad_jwt")
        }
    }
}
