import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// Forwards to an ``InMemoryAuthBackend`` but can hold `refresh` and `user` calls until a test
/// releases them, to stage races deterministically.
actor GatedBackend: AuthBackend {
    enum Gate: Hashable { case refresh, user, signInAnonymously }

    let inner: InMemoryAuthBackend
    private var closed: Set<Gate> = []
    private var waiting: [Gate: [CheckedContinuation<Void, Never>]] = [:]

    init(_ inner: InMemoryAuthBackend) {
        self.inner = inner
    }

    func close(_ gate: Gate) { closed.insert(gate) }

    func open(_ gate: Gate) {
        closed.remove(gate)
        for continuation in waiting[gate] ?? [] { continuation.resume() }
        waiting[gate] = nil
    }

    func waiterCount(_ gate: Gate) -> Int { waiting[gate]?.count ?? 0 }

    /// Waits until at least `count` calls are held at `gate`; after ten seconds the test fails
    /// (a race staged on a gate nobody reached proves nothing).
    func waitForWaiters(_ gate: Gate, count: Int = 1) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while waiterCount(gate) < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(waiterCount(gate)) of \(count) calls reached the \(gate) gate within ten seconds")
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    private func pass(_ gate: Gate) async {
        guard closed.contains(gate) else { return }
        await withCheckedContinuation { waiting[gate, default: []].append($0) }
    }

    func signUp(email: String, password: String, upgrading guest: Session?) async throws -> SignUpOutcome {
        try await inner.signUp(email: email, password: password, upgrading: guest)
    }
    func signIn(email: String, password: String) async throws -> Session {
        try await inner.signIn(email: email, password: password)
    }
    func signInAnonymously() async throws -> Session {
        await pass(.signInAnonymously)
        return try await inner.signInAnonymously()
    }
    func signIn(with credential: IDTokenCredential, upgrading guest: Session?) async throws -> Session {
        try await inner.signIn(with: credential, upgrading: guest)
    }
    func sendMagicCode(to email: String) async throws { try await inner.sendMagicCode(to: email) }
    func verifyCode(email: String, code: String, type: VerificationType) async throws -> Session {
        try await inner.verifyCode(email: email, code: code, type: type)
    }
    func resetPassword(email: String) async throws { try await inner.resetPassword(email: email) }
    func refresh(_ session: Session) async throws -> Session {
        await pass(.refresh)
        return try await inner.refresh(session)
    }
    func user(for session: Session) async throws -> User {
        await pass(.user)
        return try await inner.user(for: session)
    }
    func updateUser(_ changes: UserChanges, for session: Session) async throws -> User {
        try await inner.updateUser(changes, for: session)
    }
    func deleteAccount(_ session: Session) async throws { try await inner.deleteAccount(session) }
    func signOut(_ session: Session, scope: LogoutScope) async throws { try await inner.signOut(session, scope: scope) }
}
