import Crypto
import CryptoExtras
import Foundation
import GatehouseProcessTesting
import Synchronization

/// RSA keys for the stand-in providers, each handed out once per test process.
///
/// Generating an RSA-2048 key takes seconds in a debug build (BoringSSL compiled without
/// optimization), and the stand-ins made one or more per test on Swift's cooperative threads:
/// with a few OAuth scenes starting at once, both threads of a 2-core machine were busy
/// generating primes for tens of seconds, and every other test's timers came late. The keys in
/// `Server/Tests/Fixtures/rsa-test-keys.pem` (made with `openssl genrsa 2048`, test use only,
/// never trusted by anything) are read instead; past the last one, keys are generated on a
/// thread of their own.
enum TestRSAKeys {
    private static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/rsa-test-keys.pem")

    private static let pems: [String] = {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        let end = "-----END PRIVATE KEY-----"
        return text.components(separatedBy: end).dropLast().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n" + end }
    }()

    private static let handedOut = Atomic<Int>(0)

    /// A key no other caller in this process has been given.
    static func next() async throws -> _RSA.Signing.PrivateKey {
        let index = handedOut.add(1, ordering: .relaxed).oldValue
        if index < pems.count { return try _RSA.Signing.PrivateKey(pemRepresentation: pems[index]) }
        return try await Blocking.run { Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) } }.get()
    }
}
