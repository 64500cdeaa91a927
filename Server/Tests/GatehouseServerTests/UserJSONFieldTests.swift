import Foundation
import GatehouseCore
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// ``UserJSON`` writes every field of ``WireUser`` and ``WireSession``: a field added to the
/// wire types and not to the hand-written writer fails here (issue 33), where the comparison
/// with the encoder would not notice a field left `nil`.
@Suite("The hand-written user JSON knows every field")
struct UserJSONFieldTests {
    /// A user with every field set, lists not empty.
    static var fullUser: WireUser {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        return WireUser(
            id: UUID(),
            aud: "authenticated",
            role: "authenticated",
            email: "ada@example.com",
            phone: "+15555550100",
            emailConfirmedAt: date,
            phoneConfirmedAt: date,
            confirmedAt: date,
            confirmationSentAt: date,
            invitedAt: date,
            recoverySentAt: date,
            newEmail: "new@example.com",
            emailChangeSentAt: date,
            reauthenticationSentAt: date,
            lastSignInAt: date,
            appMetadata: ["provider": .string("email")],
            userMetadata: ["name": .string("Ada")],
            identities: [
                WireIdentity(
                    identityID: UUID(),
                    id: "sub",
                    userID: UUID(),
                    identityData: [:],
                    provider: "email",
                    email: "ada@example.com",
                    lastSignInAt: date,
                    createdAt: date,
                    updatedAt: date
                )
            ],
            factors: [
                WireFactor(
                    id: UUID(),
                    status: "verified",
                    friendlyName: "phone",
                    factorType: "totp",
                    createdAt: date,
                    updatedAt: date
                )
            ],
            createdAt: date,
            updatedAt: date,
            bannedUntil: date,
            deletedAt: date,
            isAnonymous: false
        )
    }

    /// The stored properties of `value` that hold a value (an optional that is `nil` does not).
    static func setFields(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap { child in
            guard let label = child.label else { return nil }
            if case Optional<Any>.none = child.value as Any? ?? nil { return nil }
            return String(describing: child.value) == "nil" ? nil : label
        }
    }

    @Test func everyFieldOfAUserIsWritten() throws {
        let user = Self.fullUser
        let fields = Mirror(reflecting: user).children.count
        #expect(Self.setFields(of: user).count == fields, "the fixture sets every field of WireUser")
        let written = try UserJSON.encode(user, encoder: WireCoding.makeEncoder())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any])
        #expect(object.count == fields, "WireUser has \(fields) fields; UserJSON wrote \(object.keys.sorted())")
        #expect(Data(written) == (try WireCoding.makeEncoder().encode(user)))
    }

    @Test func everyFieldOfASessionIsWritten() throws {
        let session = WireSession(
            accessToken: "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
            tokenType: "bearer",
            expiresIn: 3_600,
            expiresAt: 1_732_000_000,
            refreshToken: "v1.AbC-_dEf",
            user: Self.fullUser,
            weakPassword: WeakPasswordInfo(message: "weak", reasons: ["pwned"]),
            providerToken: "provider-access",
            providerRefreshToken: "provider-refresh"
        )
        let fields = Mirror(reflecting: session).children.count
        #expect(Self.setFields(of: session).count == fields, "the fixture sets every field of WireSession")
        let written = try UserJSON.encode(session, encoder: WireCoding.makeEncoder())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any])
        #expect(object.count == fields, "WireSession has \(fields) fields; UserJSON wrote \(object.keys.sorted())")
        #expect(Data(written) == (try WireCoding.makeEncoder().encode(session)))
    }
}
