import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// What the contract suite needs from a backend under test: the backend itself, and the
/// test-side powers both worlds can offer (reading e-mailed codes, minting Apple ID tokens,
/// letting the refresh reuse interval pass).
protocol ContractWorld: Sendable {
    /// The backend every rule is asserted through.
    var backend: any AuthBackend { get }

    /// How many codes have been e-mailed to `email`. With `settled`, first gives mail sent
    /// after an answer time to arrive, so that "nothing was sent" can be asserted.
    func codeCount(to email: String, settled: Bool) async throws -> Int

    /// The newest code e-mailed to `email`, once more than `count` codes have gone there.
    func code(to email: String, after count: Int) async throws -> String

    /// An Apple ID token for `subject`. Apple vouches for `email` when `emailVerified`; the
    /// token carries the SHA-256 of `nonce` (no nonce claim when it is `nil`).
    func appleIDToken(subject: String, email: String?, emailVerified: Bool, nonce: String?) async throws -> String

    /// A Google ID token for a Gmail `email` (verified) whose `nonce` claim is `nonce` itself, as
    /// GoogleSignIn makes it, or, when not `unhashed`, its SHA-256 hex (needs ``ContractSettings/apple``).
    func googleIDToken(subject: String, email: String, nonce: String, unhashed: Bool) async throws -> String

    /// Plays the person at the provider's page opened at `url` (what the backend's
    /// `providerSignInURL(for:)` answered for `github`; needs ``ContractSettings/github``): allows
    /// the sign-in as `account`, or declines when it is `nil`. Returns where the browser is then
    /// sent: the flow's redirect URL with `code`, or with GoTrue's error fields. The server's
    /// GitHub is a fake (`Providers/fake_github.py`) whose user ids are numbers: give numeric subjects.
    func providerConsent(at url: URL, as account: InMemoryAuthBackend.ProviderAccount?) async throws -> URL

    /// The backend's clock (authenticator codes are computed for it).
    func now() -> Date

    /// Returns once the refresh-token reuse interval (10 s) has passed.
    func passReuseInterval() async throws

    /// Makes every session's newest authentication (its sign-in, a code, a second factor) 11
    /// minutes old, past the 10 minutes within which a sensitive action needs no reauthentication
    /// code: the in-memory clock moves on; the server's clock cannot, so its sessions' sign-in
    /// times (`amr`) are moved back in its database instead.
    func ageSignIns() async throws

    /// Stops whatever the world started.
    func close() async
}

extension ContractWorld {
    func codeCount(to email: String) async throws -> Int { try await codeCount(to: email, settled: false) }

    func code(to email: String) async throws -> String { try await code(to: email, after: 0) }

    func appleIDToken(subject: String, email: String? = nil, nonce: String?) async throws -> String {
        try await appleIDToken(subject: subject, email: email, emailVerified: true, nonce: nonce)
    }
}

/// How a world is set up: the settings both backends have.
struct ContractSettings: Sendable {
    /// Sign-ups and guests' new addresses count at once, with no code
    /// (`GATEHOUSE_MAILER_AUTOCONFIRM`; the in-memory backend's `requiresEmailConfirmation` off).
    var autoconfirm = false
    /// Sign in with Apple is enabled (on the server: with a fake Apple serving its keys).
    var apple = false
    /// Guests may sign in (`GATEHOUSE_ANONYMOUS_USERS`; the in-memory `allowsAnonymousSignIn`).
    var guests = true
    /// Passkeys for the RP id `example.com` (`GATEHOUSE_WEBAUTHN_RP_ID`; the in-memory
    /// `passkeyRelyingPartyID`); off otherwise.
    var passkeys = false
    /// GitHub sign-in through its page (on the server: the fake GitHub as GitHub Enterprise, and
    /// loopback redirects allowed); the in-memory backend simulates `github` always.
    var github = false
}

/// The backends the contract runs against.
enum BackendKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case inMemory
    case server

    /// Every backend that can run here: the server only where the end-to-end tests run
    /// (`GATEHOUSE_SERVER_BIN` set, or CI, where a missing binary fails).
    static var underTest: [BackendKind] { EndToEnd.enabled ? allCases : [.inMemory] }

    var testDescription: String { rawValue }

    /// Runs `body` in a fresh world of this kind, then closes it.
    func run(
        _ settings: ContractSettings = ContractSettings(),
        _ body: (any ContractWorld) async throws -> Void
    ) async throws {
        let world: any ContractWorld
        switch self {
        case .inMemory: world = InMemoryWorld(settings)
        case .server: world = try await ServerWorld.start(settings)
        }
        do {
            try await body(world)
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }
}
