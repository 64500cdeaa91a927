import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt (hummingbird-auth; `$2b$`, GoTrue-compatible) run off the event loop on a bounded
/// pool of its own (one thread per core). Not NIO's shared pool: SQLite's statements run there,
/// and a queue of sign-ins must not make every other request wait behind it.
///
/// A verification costs the same work whoever the user is, so that its time tells no one
/// whether an address is registered: one bcrypt at the server's cost (against a dummy hash for
/// an unknown address), and, while an imported Firebase project's parameters are kept, one
/// Firebase scrypt as well (against a dummy for everyone whose hash is not Firebase's, a dummy
/// bcrypt for those whose hash is). Without that, a wrong password on a Firebase user not yet
/// rehashed would cost scrypt where an unknown address costs bcrypt.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A hash of a random password, verified against when the user does not exist so that an
    /// unknown e-mail costs the same time as a wrong password.
    let dummyHash: String
    /// A random salt and hash that Firebase's scrypt runs against, to no match, for users whose
    /// hash is not Firebase's while its parameters are kept.
    private let dummyScrypt: (salt: Data, hash: Data)
    /// How many verifications ran: the equal-work property is checked by counting, not by
    /// timing.
    var verificationCount: Int { verifications.value.load(ordering: .relaxed) }
    /// How many bcrypt and Firebase scrypt computations ran, real or dummy.
    var workCount: (bcrypt: Int, scrypt: Int) {
        (bcryptRuns.value.load(ordering: .relaxed), scryptRuns.value.load(ordering: .relaxed))
    }
    private let verifications = Counter()
    private let bcryptRuns = Counter()
    private let scryptRuns = Counter()

    private let pool: NIOThreadPool
    /// The kept hash parameters of a Firebase project, for users imported with its scrypt
    /// hashes (``StoredPasswordHash``).
    let firebaseKeys: FirebaseHashKeyStore?

    init(cost: UInt8, firebaseKeys: FirebaseHashKeyStore? = nil) {
        self.cost = cost
        self.firebaseKeys = firebaseKeys
        pool = Self.sharedPool
        self.dummyHash = Bcrypt.hash(Hex.encode(SecureRandom.bytes(16)), cost: cost)
        self.dummyScrypt = (Data(SecureRandom.bytes(16)), Data(SecureRandom.bytes(32)))
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
    /// parameters: none kept, no match). The work is the same whatever `hash` is (see the type).
    func verify(_ password: String, hash: String?) async throws -> Bool {
        verifications.value.add(1, ordering: .relaxed)
        let stored = hash.flatMap(StoredPasswordHash.init(stored:))
        let firebase: FirebaseHashParameters?
        do {
            firebase = try await firebaseKeys?.load()
        } catch {
            // Kept parameters that do not open (sealed under another server secret) fail the
            // sign-ins that need them, not every password sign-in.
            if case .firebaseScrypt? = stored { throw error }
            firebase = nil
        }
        let (bcrypt, scrypt, real): (String, (salt: Data, hash: Data), Scheme?) =
            switch stored {
            case .bcrypt(let hash)?: (hash, dummyScrypt, .bcrypt)
            case .firebaseScrypt(let salt, let hash)? where firebase != nil: (dummyHash, (salt, hash), .scrypt)
            case .firebaseScrypt?, nil: (dummyHash, dummyScrypt, nil)
            }
        let (bcryptRuns, scryptRuns) = (self.bcryptRuns, self.scryptRuns)
        let queued = ContinuousClock.now
        return try await pool.runIfActive {
            AuthMetrics.bcryptQueueWait(queued.duration(to: .now))
            bcryptRuns.value.add(1, ordering: .relaxed)
            let bcryptMatches = Bcrypt.verify(password, hash: bcrypt)
            var scryptMatches = false
            if let firebase {
                scryptRuns.value.add(1, ordering: .relaxed)
                scryptMatches = FirebaseScrypt.verify(
                    password,
                    salt: scrypt.salt,
                    expected: scrypt.hash,
                    parameters: firebase
                )
            }
            switch real {
            case .bcrypt: return bcryptMatches
            case .scrypt: return scryptMatches
            case nil: return false
            }
        }
    }

    /// The scheme of the hash a verification checks for real.
    private enum Scheme { case bcrypt, scrypt }
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
