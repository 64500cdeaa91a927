import Foundation
import Gatehouse
import GatehouseProcessTesting
import GatehouseTesting
import Testing

/// Two-factor sign-in with an authenticator app, the same rules on both backends.
@Suite("Contract: two-factor sign-in", .serialized)
struct MFAContract {
    @Test(arguments: BackendKind.underTest)
    func aCodeRaisesTheSessionAndAnAAL1SessionCannotChangeTheAccount(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            #expect(session.aal == .aal1 && !session.assuranceLevel.isSecondFactorRequired)
            let enrolment = try await world.backend.enrollTOTP(friendlyName: "phone", for: session)
            #expect(enrolment.uri.hasPrefix("otpauth://totp/") && enrolment.uri.contains(enrolment.secret))
            #expect(enrolment.friendlyName == "phone")
            #expect(try await world.backend.user(for: session).factors.map(\.isVerified) == [false])
            await expectFailure(.mfaFactorNameConflict) {
                try await world.backend.enrollTOTP(friendlyName: "phone", for: session)
            }
            let app = AuthenticatorApp(base32: enrolment.secret)
            let now = world.now()

            let first = try await world.backend.challengeFactor(enrolment.factorID, for: session)
            #expect(first.expiresAt.timeIntervalSince(now) > 290)
            await expectFailure(.mfaVerificationFailed) {
                try await world.backend.verifyFactor(
                    enrolment.factorID,
                    challengeID: first.id,
                    code: wrong(app.code(at: now)),
                    for: session
                )
            }
            let raised = try await world.backend.verifyFactor(
                enrolment.factorID,
                challengeID: first.id,
                code: app.code(at: now),
                for: session
            )
            #expect(raised.aal == .aal2 && raised.user.factors.map(\.isVerified) == [true])
            #expect(try await world.backend.refresh(raised).aal == .aal2, "the level survives refresh")

            let aal1 = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            #expect(aal1.aal == .aal1 && aal1.assuranceLevel.isSecondFactorRequired)
            await expectFailure(.insufficientAAL) {
                try await world.backend.updateUser(UserChanges(password: "another good passphrase"), for: aal1)
            }
            await expectFailure(.insufficientAAL) {
                try await world.backend.unenrollFactor(enrolment.factorID, for: aal1)
            }
            await expectFailure(.insufficientAAL) { try await world.backend.enrollTOTP(friendlyName: "b", for: aal1) }
            // The code accepted above is refused now (a replay); the app's next one is new.
            let replay = try await world.backend.challengeFactor(enrolment.factorID, for: aal1)
            await expectFailure(.mfaVerificationFailed) {
                try await world.backend.verifyFactor(
                    enrolment.factorID,
                    challengeID: replay.id,
                    code: app.code(at: now),
                    for: aal1
                )
            }
            let next = try await world.backend.challengeFactor(enrolment.factorID, for: aal1)
            let second = try await world.backend.verifyFactor(
                enrolment.factorID,
                challengeID: next.id,
                code: app.code(at: now, steps: 1),
                for: aal1
            )
            #expect(second.aal == .aal2)
            try await world.backend.unenrollFactor(enrolment.factorID, for: second)
            #expect(try await world.backend.user(for: second).factors.isEmpty)
            #expect(try await world.backend.refresh(second).aal == .aal1, "the session relied on it")
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aChallengeTakesFiveCodesAndGuestsCannotEnrol(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let enrolment = try await world.backend.enrollTOTP(friendlyName: nil, for: session)
            let app = AuthenticatorApp(base32: enrolment.secret)
            let challenge = try await world.backend.challengeFactor(enrolment.factorID, for: session)
            let right = app.code(at: world.now())
            for _ in 0..<5 {
                await expectFailure(.mfaVerificationFailed) {
                    try await world.backend.verifyFactor(
                        enrolment.factorID,
                        challengeID: challenge.id,
                        code: wrong(right),
                        for: session
                    )
                }
            }
            await expectFailure(.mfaChallengeExpired) {
                try await world.backend.verifyFactor(
                    enrolment.factorID,
                    challengeID: challenge.id,
                    code: right,
                    for: session
                )
            }
            await expectFailure(.mfaFactorNotFound) {
                try await world.backend.challengeFactor(UUID().uuidString, for: session)
            }
            let guest = try await world.backend.signInAnonymously()
            await expectFailure(.noAuthorization) { try await world.backend.enrollTOTP(friendlyName: nil, for: guest) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func aNewFactorIsVerifiedOnlyFromItsSessionAndAnAAL1SessionCannotEndOthers(_ kind: BackendKind) async throws {
        // Issue 31: the table of sensitive actions, on both backends.
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let session = try await signUp(world)
            let enrolment = try await world.backend.enrollTOTP(friendlyName: "phone", for: session)
            let other = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            await expectFailure(.mfaFactorNotFound, "another session cannot use the new factor") {
                try await world.backend.challengeFactor(enrolment.factorID, for: other)
            }
            let app = AuthenticatorApp(base32: enrolment.secret)
            let challenge = try await world.backend.challengeFactor(enrolment.factorID, for: session)
            let raised = try await world.backend.verifyFactor(
                enrolment.factorID,
                challengeID: challenge.id,
                code: app.code(at: world.now()),
                for: session
            )
            #expect(raised.aal == .aal2)
            let aal1 = try await world.backend.signIn(email: "ada@example.com", password: contractPassword)
            await expectFailure(.insufficientAAL) { try await world.backend.signOut(aal1, scope: .others) }
            await expectFailure(.insufficientAAL) { try await world.backend.sessions(for: aal1) }
            #expect(try await world.backend.user(for: raised).id == raised.user.id, "the AAL2 session lives")
            try await world.backend.signOut(raised, scope: .others)
        }
    }

    private func signUp(_ world: any ContractWorld) async throws -> Session {
        guard
            case .signedIn(let session) = try await world.backend.signUp(
                email: "ada@example.com",
                password: contractPassword,
                upgrading: nil
            )
        else {
            throw ServerProcessError.didNotStart("autoconfirm is on: sign-up signs in")
        }
        return session
    }
}
