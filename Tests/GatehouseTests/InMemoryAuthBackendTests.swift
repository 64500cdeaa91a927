import Foundation
import Gatehouse
import GatehouseTesting
import Testing

@Suite("In-memory backend")
struct InMemoryAuthBackendTests {
    let clock = ManualClock()
    var backend: InMemoryAuthBackend { InMemoryAuthBackend(configuration: .init(now: clock.now)) }

    @Test func rotationReuseAndFamilyRevocation() async throws {
        let backend = self.backend
        let first = try await backend.signInAnonymously()
        let second = try await backend.refresh(first)
        #expect(second.refreshToken != first.refreshToken)

        // The direct parent (a lost response) yields the current token, not a new child.
        let replay = try await backend.refresh(first)
        #expect(replay.refreshToken == second.refreshToken)

        let third = try await backend.refresh(second)
        clock.advance(by: 5)
        // Within the reuse interval a rotated token yields the current one.
        #expect(try await backend.refresh(second).refreshToken == third.refreshToken)

        clock.advance(by: 30)
        // Past it, an older token is reuse: the whole family is revoked.
        await #expect(throws: AuthError.self) { try await backend.refresh(first) }
        let error = await #expect(throws: AuthError.self) { try await backend.refresh(third) }
        #expect(error?.code == .refreshTokenNotFound)
        #expect(await backend.liveSessionCount(ofUser: first.user.id) == 0)
    }

    @Test func reuseErrorCodeIsAlreadyUsed() async throws {
        let backend = self.backend
        let first = try await backend.signInAnonymously()
        let second = try await backend.refresh(first)
        _ = try await backend.refresh(second)
        clock.advance(by: 60)
        let error = await #expect(throws: AuthError.self) { try await backend.refresh(first) }
        #expect(error?.code == .refreshTokenAlreadyUsed)
    }

    @Test func aCodeDiesAfterFiveWrongAttempts() async throws {
        let backend = self.backend
        try await backend.sendMagicCode(to: "ada@example.com")
        let code = try #require(await backend.lastCode(for: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            await #expect(throws: AuthError.self) {
                try await backend.verifyCode(email: "ada@example.com", code: wrong, type: .email)
            }
        }
        let error = await #expect(throws: AuthError.self) {
            try await backend.verifyCode(email: "ada@example.com", code: code, type: .email)
        }
        #expect(error?.code == .otpExpired)
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

    @Test func unknownAndWrongPasswordAreTheSameError() async throws {
        let backend = self.backend
        await backend.seedUser(email: "ada@example.com", password: "correct horse")
        let unknown = await #expect(throws: AuthError.self) {
            try await backend.signIn(email: "bob@example.com", password: "x")
        }
        let wrong = await #expect(throws: AuthError.self) {
            try await backend.signIn(email: "ada@example.com", password: "x")
        }
        #expect(unknown == wrong)
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
}
