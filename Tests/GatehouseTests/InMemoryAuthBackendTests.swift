import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// What only the in-memory backend has: its clock, test controls and injected failures. The
/// rules it shares with the server (codes, refresh rotation, sign-out, guests, ID tokens) are
/// asserted once, against both, by the contract suite in `CLI/Tests/EndToEndTests/Contract`.
@Suite("In-memory backend")
struct InMemoryAuthBackendTests {
    let clock = ManualClock()
    var backend: InMemoryAuthBackend { InMemoryAuthBackend(configuration: .init(now: clock.now)) }

    @Test func reuseIsMeasuredFromTheLastRotation() async throws {
        let backend = self.backend
        let first = try await backend.signInAnonymously()
        let second = try await backend.refresh(first)
        clock.advance(by: 30)
        let third = try await backend.refresh(second)
        clock.advance(by: 5)
        // The grandparent was rotated away 35 s ago, but the family rotated 5 s ago.
        #expect(try await backend.refresh(first).refreshToken == third.refreshToken)
        clock.advance(by: 6)
        let error = await #expect(throws: AuthError.self) { try await backend.refresh(first) }
        #expect(error?.code == .refreshTokenAlreadyUsed)
        #expect(await backend.liveSessionCount(ofUser: first.user.id) == 0)
    }

    @Test func aCodeExpiresAfterItsLifetime() async throws {
        let backend = self.backend
        try await backend.sendMagicCode(to: "ada@example.com")
        let code = try #require(await backend.lastCode(for: "ada@example.com"))
        clock.advance(by: 601)
        await #expect(throws: AuthError.self) {
            try await backend.verifyCode(email: "ada@example.com", code: code, type: .email)
        }
    }

    @Test func aNewMagicCodeCanBeSentOnceAMinuteHasPassedAndReplacesTheOld() async throws {
        let backend = self.backend
        try await backend.sendMagicCode(to: "ada@example.com")
        let old = try #require(await backend.lastCode(for: "ada@example.com", type: .email))
        clock.advance(by: 61)
        try await backend.sendMagicCode(to: "ada@example.com")
        let new = try #require(await backend.lastCode(for: "ada@example.com", type: .email))
        #expect(await backend.sentCodes.count == 2)
        if old != new {
            await #expect(throws: AuthError.self) {
                try await backend.verifyCode(email: "ada@example.com", code: old, type: .email)
            }
        }
        _ = try await backend.verifyCode(email: "ada@example.com", code: new, type: .email)
    }

    @Test func aSeededUserSignsInWithItsPassword() async throws {
        let backend = self.backend
        let user = await backend.seedUser(email: "Ada@Example.com", password: "correct horse")
        let session = try await backend.signIn(email: "ada@example.com", password: "correct horse")
        #expect(session.user.id == user.id && user.emailConfirmedAt != nil)
    }

    @Test func injectedFailuresAndCounts() async throws {
        let backend = self.backend
        await backend.failNext(.signInAnonymously, with: .networkUnavailable())
        await #expect(throws: AuthError.networkUnavailable()) { try await backend.signInAnonymously() }
        _ = try await backend.signInAnonymously()
        #expect(await backend.callCount(.signInAnonymously) == 2)
    }

    @Test func banEndsSessionsAndRefusesSignIn() async throws {
        let backend = self.backend
        let user = await backend.seedUser(email: "ada@example.com", password: "correct horse")
        let session = try await backend.signIn(email: "ada@example.com", password: "correct horse")
        await backend.banUser(id: user.id, until: clock.date.addingTimeInterval(3600))
        let refresh = await #expect(throws: AuthError.self) { try await backend.refresh(session) }
        #expect(refresh?.endsSession == true)
        let signIn = await #expect(throws: AuthError.self) {
            try await backend.signIn(email: "ada@example.com", password: "correct horse")
        }
        #expect(signIn?.code == .userBanned)
    }

    @Test func deleteUserEndsItsSessionsAtOnce() async throws {
        let backend = self.backend
        let guest = try await backend.signInAnonymously()
        await backend.deleteUser(id: guest.user.id)
        let error = await #expect(throws: AuthError.self) { try await backend.user(for: guest) }
        #expect(error?.code == .sessionNotFound)
        #expect(await backend.user(id: guest.user.id) == nil)
    }
}
