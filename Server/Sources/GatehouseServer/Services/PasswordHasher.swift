import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt (hummingbird-auth; `$2b$`, GoTrue-compatible) run off the event loop on NIO's
/// bounded thread pool (one thread per core).
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A hash of a random password, verified against when the user does not exist so that an
    /// unknown e-mail costs the same time as a wrong password.
    let dummyHash: String
    /// How many verifications ran (each costs one bcrypt): the equal-work property is checked
    /// by counting, not by timing.
    var verificationCount: Int { verifications.value.load(ordering: .relaxed) }
    private let verifications = Counter()

    init(cost: UInt8) {
        self.cost = cost
        self.dummyHash = Bcrypt.hash(Hex.encode(Hex.randomBytes(16)), cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies `password` against `hash`, or against the dummy hash when there is none.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        verifications.value.add(1, ordering: .relaxed)
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return matches && hash != nil
    }
}

/// A shareable atomic counter.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
