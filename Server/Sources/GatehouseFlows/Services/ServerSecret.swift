import Crypto
import Foundation

#if canImport(Glibc)
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's own secret: the key of refresh-token and code HMACs. It is kept outside the
/// database (configuration, or a 0600 file beside it) so that a database dump alone can
/// neither mint refresh tokens nor invert stored codes. Which source a database uses is
/// ``ServerDatabase``'s rule.
package struct ServerSecret: Sendable {
    let key: SymmetricKey
    /// An HMAC already keyed with ``key``: each MAC copies it instead of keying a new one (the
    /// two padded key blocks hashed again for every refresh token: issue 35).
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        self.key = key
        keyed = HMAC<SHA256>(key: key)
    }

    /// The secret from its configured text (`GATEHOUSE_SERVER_SECRET`).
    init(text: String) {
        self.init(key: SymmetricKey(data: SHA256.hash(data: Data(text.utf8))))
    }

    /// A random secret for a database that lives only as long as the process.
    static func ephemeral() -> ServerSecret {
        ServerSecret(key: SymmetricKey(size: .bits256))
    }

    /// The secret kept in a 0600 file at `path`, created with 32 random bytes on first use.
    static func file(at path: String) throws -> ServerSecret {
        try SQLiteFiles.requirePrivate(path, variable: "GATEHOUSE_SERVER_SECRET")
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == 32 else {
                throw ConfigurationError(variable: "GATEHOUSE_SERVER_SECRET", problem: "file \(path) is not 32 bytes")
            }
            return ServerSecret(key: SymmetricKey(data: data))
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ConfigurationError(variable: "GATEHOUSE_SERVER_SECRET", problem: "file \(path) could not be created")
        }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        return ServerSecret(key: key)
    }

    /// HMAC-SHA-256 of `message`, lowercase hex.
    func mac(_ message: String) -> String {
        Hex.encode(macBytes(Array(message.utf8)))
    }

    /// HMAC-SHA-256 of `message`, raw bytes.
    package func macBytes(_ message: [UInt8]) -> [UInt8] {
        var mac = keyed
        mac.update(data: message)
        return Array(mac.finalize())
    }
}
