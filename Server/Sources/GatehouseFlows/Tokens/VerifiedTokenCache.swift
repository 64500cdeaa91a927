import GatehouseServerSupport
import GatehouseStorage
import Synchronization

/// Access tokens whose signature verified and whose claims decoded, by their whole text, so that
/// a token presented again skips the ES256 check, the base64url and the JSON of its claims.
///
/// What it may not change: every request still checks the claims' time window, issuer and
/// audience (``TokenService/verify(_:now:allowProjectKey:)``), and reads the session and its
/// user from the database (``Authenticator``), so a signed-out, ended or banned session is
/// refused at once whatever this holds. On top of that an entry:
/// - is keyed by the whole token (text compared in full, never a prefix or a digest);
/// - is never answered at or after its token's `exp` plus the leeway, and is removed then (on
///   its next lookup, or by the purge of expired entries at most a second after it is full);
/// - is dropped when its session ends in this process (``drop(session:)``,
///   ``drop(user:keeping:)``) or is found ended by a request;
/// - is one of at most ``capacity`` (about 1 KiB each): a full cache evicts before it adds.
final class VerifiedTokenCache: Sendable {
    static let defaultCapacity = 4_096

    let capacity: Int

    private struct Entry {
        var claims: VerifiedAccess
        /// The first second at which the token is refused as expired.
        var expires: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Session id → the tokens of that session in `entries`.
        var sessions: [String: [String]] = [:]
        /// When expired entries may next be purged (once a second at most).
        var nextPurge = 0
    }

    private let state = Mutex(State())

    init(capacity: Int = VerifiedTokenCache.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// How many tokens it holds.
    var count: Int { state.withLock { $0.entries.count } }

    /// The claims of `token` if it verified before and has not expired at `now` (seconds).
    func claims(for token: String, now: Int) -> VerifiedAccess? {
        state.withLock { state in
            guard let entry = state.entries[token] else { return nil }
            guard now < entry.expires else {
                Self.remove(token, from: &state)
                return nil
            }
            return entry.claims
        }
    }

    /// Remembers `claims` for `token` until `expires` (seconds; `exp` plus the leeway).
    func remember(_ token: String, claims: VerifiedAccess, expires: Int, now: Int) {
        guard now < expires else { return }
        state.withLock { state in
            guard state.entries[token] == nil else { return }
            if state.entries.count >= capacity, now >= state.nextPurge {
                state.nextPurge = now + 1
                for (key, entry) in state.entries where entry.expires <= now { Self.remove(key, from: &state) }
            }
            while state.entries.count >= capacity, let victim = state.entries.first?.key {
                Self.remove(victim, from: &state)
            }
            state.entries[token] = Entry(claims: claims, expires: expires)
            if let session = claims.sessionID { state.sessions[session, default: []].append(token) }
        }
    }

    /// Forgets every token of `session` (it has ended).
    func drop(session: String) {
        state.withLock { state in
            for token in state.sessions.removeValue(forKey: session) ?? [] { state.entries[token] = nil }
        }
    }

    /// Forgets every token of the user `sub` except those of the session `kept` (the user's
    /// sessions have ended, or all but `kept`).
    func drop(user sub: String, keeping kept: String? = nil) {
        state.withLock { state in
            let ended = state.entries.filter { $0.value.claims.sub == sub && $0.value.claims.sessionID != kept }
            for token in ended.keys { Self.remove(token, from: &state) }
        }
    }

    private static func remove(_ token: String, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: token) else { return }
        guard let session = entry.claims.sessionID, var tokens = state.sessions[session] else { return }
        tokens.removeAll { $0 == token }
        state.sessions[session] = tokens.isEmpty ? nil : tokens
    }
}
