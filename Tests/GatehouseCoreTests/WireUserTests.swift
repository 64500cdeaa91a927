import Foundation
import GatehouseCore
import Testing

@Suite("Wire users and sessions")
struct WireUserTests {
    @Test func decodesAGoTrueSessionWithMicrosecondTimestamps() throws {
        let json = #"""
            {"access_token":"a","token_type":"bearer","expires_in":3600,"expires_at":1800003600,"refresh_token":"r",
             "user":{"id":"7C9E6679-7425-40DE-944B-E07FC1F90AE7","aud":"authenticated","role":"authenticated",
             "email":"ada@example.com","phone":"","created_at":"2024-01-02T03:04:05.123456Z",
             "updated_at":"2024-01-02T03:04:05Z","app_metadata":{"provider":"email","providers":["email"]},
             "user_metadata":{},"identities":[],"is_anonymous":false,"some_future_field":true}}
            """#
        let session = try WireCoding.makeDecoder().decode(WireSession.self, from: Data(json.utf8))
        #expect(session.user.email == "ada@example.com")
        #expect(session.user.appMetadata["providers"] == ["email"])
        #expect(session.expiresIn == 3600)
    }

    @Test func encodesAUserRoundTrip() throws {
        let user = WireUser(
            id: UUID(),
            email: "ada@example.com",
            createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
        let data = try WireCoding.makeEncoder().encode(user)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""phone":"""#), "phone is an empty string, never null")
        #expect(text.contains(#""is_anonymous":false"#))
        #expect(try WireCoding.makeDecoder().decode(WireUser.self, from: data) == user)
    }

    @Test func anEmptyEmailDecodesAsNone() throws {
        let json =
            #"{"id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","email":"","created_at":"2024-01-02T03:04:05Z","is_anonymous":true}"#
        let user = try WireCoding.makeDecoder().decode(WireUser.self, from: Data(json.utf8))
        #expect(user.email == nil)
        #expect(user.isAnonymous)
    }
}

@Suite("Wire identifiers")
struct WireIdentifierTests {
    @Test func idsAreLowercaseOnTheWire() throws {
        let id = UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!
        let user = WireUser(id: id, createdAt: .distantPast, updatedAt: .distantPast)
        let text = String(decoding: try WireCoding.makeEncoder().encode(user), as: UTF8.self)
        #expect(text.contains(#""id":"7c9e6679-7425-40de-944b-e07fc1f90ae7""#))
    }
}
