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
    /// The kept hash parameters of a Firebase project, for users imported with its scrypt
    /// hashes (``StoredPasswordHash``).
    let firebaseKeys: FirebaseHashKeyStore?

    init(cost: UInt8, firebaseKeys: FirebaseHashKeyStore? = nil) {
        self.cost = cost
        self.firebaseKeys = firebaseKeys
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

    /// Verifies `password` against `hash`, or against the dummy hash when there is none. An
    /// imported hash is verified with its own scheme (Firebase's scrypt, under the kept
    /// parameters: none kept, no match).
    func verify(_ password: String, hash: String?) async throws -> Bool {
        if let hash, case .firebaseScrypt(let salt, let expected)? = StoredPasswordHash(stored: hash) {
            verifications.value.add(1, ordering: .relaxed)
            guard let parameters = try await firebaseKeys?.load() else {
                return try await verify(password, hash: nil)
            }
            let queued = ContinuousClock.now
            return try await pool.runIfActive {
                AuthMetrics.bcryptQueueWait(queued.duration(to: .now))
                return FirebaseScrypt.verify(password, salt: salt, expected: expected, parameters: parameters)
            }
        }
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
    /// Whether a hash that just verified should be replaced by a hash of the server's own: an
    /// imported scheme (Firebase's scrypt), `$2a$`, or bcrypt cheaper than the configured cost.
    func needsRehash(_ hash: String) -> Bool {
        guard case .bcrypt(let bcrypt)? = StoredPasswordHash(stored: hash) else { return true }
        let cost = UInt8(bcrypt.dropFirst(4).prefix(2)) ?? 0
        return !bcrypt.hasPrefix("$2b$") || cost < self.cost
    }

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
