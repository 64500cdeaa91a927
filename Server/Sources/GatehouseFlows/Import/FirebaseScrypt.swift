import Crypto
import CryptoExtras
import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Firebase Authentication's scrypt variant (github.com/firebase/scrypt), verified with
/// swift-crypto's primitives: scrypt (N = 2^mem_cost, r = rounds, p = 1, 32 bytes) over the
/// password with the user's salt followed by the project's salt separator gives a key; the
/// project's signer key encrypted under it with AES-256-CTR (zero IV) is the hash.
enum FirebaseScrypt {
    /// The hash of `password` with the user's `salt` under `parameters`.
    static func hash(_ password: String, salt: Data, parameters: FirebaseHashParameters) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8),
            salt: salt + parameters.saltSeparator,
            outputByteCount: 32,
            rounds: 1 << parameters.memoryCost,
            blockSize: parameters.rounds,
            parallelism: 1
        )
        return try AES._CTR.encrypt(
            parameters.signerKey,
            using: key,
            nonce: AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16))
        )
    }

    /// Whether `password` gives `expected`, compared in constant time.
    static func verify(_ password: String, salt: Data, expected: Data, parameters: FirebaseHashParameters) -> Bool {
        guard let actual = try? hash(password, salt: salt, parameters: parameters) else { return false }
        return ConstantTime.equal(Array(actual), Array(expected))
    }
}
