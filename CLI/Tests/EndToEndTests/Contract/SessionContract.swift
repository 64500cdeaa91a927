import Foundation
import Gatehouse
import Testing

/// Refresh-token rotation and sign-out scopes.
@Suite("Contract: refresh and sign-out", .serialized)
struct SessionContract {
    @Test(arguments: BackendKind.underTest)
    func refreshRotatesAnswersReuseWithTheCurrentTokenThenEndsTheSession(_ kind: BackendKind) async throws {
        try await kind.run { world in
            let backend = world.backend
            let first = try await backend.signInAnonymously()
            let second = try await backend.refresh(first)
            #expect(second.refreshToken != first.refreshToken && second.user.id == first.user.id)
            // The direct parent (a lost response) gets the current token, not a new one.
            #expect(try await backend.refresh(first).refreshToken == second.refreshToken)

            let third = try await backend.refresh(second)
            // Within the reuse interval of the last rotation, an older token gets the current one.
            #expect(try await backend.refresh(first).refreshToken == third.refreshToken)

            try await world.passReuseInterval()
            #expect(try await backend.refresh(second).refreshToken == third.refreshToken, "the parent, always")
            let reuse = await expectFailure(.refreshTokenAlreadyUsed) { try await backend.refresh(first) }
            #expect(reuse?.endsSession == true)
            // Reuse ended the whole session.
            let after = await expectFailure(.refreshTokenNotFound) { try await backend.refresh(third) }
            #expect(after?.endsSession == true)
            await expectFailure(.sessionNotFound) { try await backend.user(for: third) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anAccessTokenTheBackendNeverIssuedIsBadJWT(_ kind: BackendKind) async throws {
        try await kind.run { world in
            var forged = try await world.backend.signInAnonymously()
            forged.accessToken = "not.a.token"
            let error = await expectFailure(.badJWT) { try await world.backend.user(for: forged) }
            #expect(error?.endsSession == false, "not definitive: a refresh may still work")
            #expect(try await world.backend.refresh(forged).user.id == forged.user.id)
        }
    }

    @Test(arguments: BackendKind.underTest, LogoutScope.allCases)
    func signOutEndsTheSessionsOfItsScope(_ kind: BackendKind, scope: LogoutScope) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let backend = world.backend
            _ = try await backend.signUp(email: "ada@example.com", password: contractPassword, upgrading: nil)
            let this = try await backend.signIn(email: "ada@example.com", password: contractPassword)
            let other = try await backend.signIn(email: "ada@example.com", password: contractPassword)
            let bystander = try await backend.signInAnonymously()

            try await backend.signOut(this, scope: scope)

            let ended: [Session]
            let live: [Session]
            switch scope {
            case .local: (ended, live) = ([this], [other, bystander])
            case .others: (ended, live) = ([other], [this, bystander])
            case .global: (ended, live) = ([this, other], [bystander])
            }
            for session in ended {
                let refresh = await expectFailure(.refreshTokenNotFound) { try await backend.refresh(session) }
                #expect(refresh?.endsSession == true, "definitive: the app must sign in again")
                let user = await expectFailure(.sessionNotFound) { try await backend.user(for: session) }
                #expect(user?.endsSession == true)
                // Signing out of an ended session is not an error.
                try await backend.signOut(session, scope: .local)
            }
            for session in live {
                #expect(try await backend.user(for: session).id == session.user.id)
            }
        }
    }
}
