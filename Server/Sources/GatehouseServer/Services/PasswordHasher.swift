import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt (hummingbird-auth; `$2b$`, GoTrue-compatible) run off the event loop on a bounded
/// pool of its own (one thread per core). Not NIO's shared pool: SQLite's statements run there,
/// and a queue of sign-ins must not make every other request wait behind it.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A hash of a random password, verified against when the user does not exist so that an
    /// unknown e-mail costs the same time as a wrong password.
    let dummyHash: String
    /// How many verifications ran (each costs one bcrypt): the equal-work property is checked
    /// by counting, not by timing.
    var verificationCount: Int { verifications.value.load(ordering: .relaxed) }
    private let verifications = Counter()

    private let pool: NIOThreadPool

    init(cost: UInt8) {
        self.cost = cost
        pool = Self.sharedPool
        self.dummyHash = Bcrypt.hash(Hex.encode(SecureRandom.bytes(16)), cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let queued = ContinuousClock.now
        return try await pool.runIfActive {
            AuthMetrics.bcryptQueueWait(queued.duration(to: .now))
            return Bcrypt.hash(password, cost: cost)
        }
    }

    /// Verifies `password` against `hash`, or against the dummy hash when there is none.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        verifications.value.add(1, ordering: .relaxed)
        let queued = ContinuousClock.now
        let matches = try await pool.runIfActive {
            AuthMetrics.bcryptQueueWait(queued.duration(to: .now))
            return Bcrypt.verify(password, hash: target)
        }
        return matches && hash != nil
    }
}

extension PasswordHasher {
    /// One pool for every hasher in the process, started on first use, never shut down.
    fileprivate static let sharedPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()
}

/// A shareable atomic counter.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
