import Gatehouse
import Testing

@Suite("Gate and optional routing")
struct AuthGateTests {
    let member = User(id: "u1", email: "ada@example.com")
    let guest = User(id: "g1", isAnonymous: true)

    @Test func gateModeRoutesEveryState() {
        let gate = AuthGate.gate
        #expect(gate.route(for: .notInitiated) == .progress)
        #expect(gate.route(for: .loading) == .progress)
        #expect(gate.route(for: .success(nil)) == .signIn)
        #expect(gate.route(for: .success(member)) == .content(member))
        #expect(gate.route(for: .success(guest)) == .content(guest))
        #expect(gate.route(for: .failure(.storageLocked())) == .sessionError(.storageLocked()))
    }

    @Test func optionalModeAlwaysShowsContent() {
        let gate = AuthGate.optional
        #expect(gate.route(for: .notInitiated) == .content(nil))
        #expect(gate.route(for: .loading) == .content(nil))
        #expect(gate.route(for: .success(nil)) == .content(nil))
        #expect(gate.route(for: .success(member)) == .content(member))
        #expect(gate.route(for: .success(guest)) == .content(guest))
        #expect(gate.route(for: .failure(.storageLocked())) == .content(nil))
    }

    @Test func featuresAskForSignInByRequirement() {
        let gate = AuthGate.optional
        #expect(gate.requiresSignIn(for: .anyUser, in: .unauthenticated))
        #expect(gate.requiresSignIn(for: .anyUser, in: .loading))
        #expect(!gate.requiresSignIn(for: .anyUser, in: .guest(guest)))
        #expect(gate.requiresSignIn(for: .account, in: .guest(guest)))
        #expect(!gate.requiresSignIn(for: .account, in: .authenticated(member)))
    }
}
