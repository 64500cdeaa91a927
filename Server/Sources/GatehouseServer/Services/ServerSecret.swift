import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's own secret: the key of refresh-token and code HMACs. It is kept outside the
/// database (configuration, or a 0600 file beside it) so that a database dump alone can
/// neither mint refresh tokens nor invert stored codes.
struct ServerSecret: Sendable {
    let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
    }

    /// From configuration, or from `<database>.secret`, created with 32 random bytes on first start;
    /// a random secret for an in-memory database.
    static func load(configuration: ServerConfiguration) throws -> ServerSecret {
        if let text = configuration.serverSecret {
            return ServerSecret(key: SymmetricKey(data: SHA256.hash(data: Data(text.utf8))))
        }
        if case .postgres = configuration.database {
            throw ConfigurationError(
                variable: "GATEHOUSE_SERVER_SECRET",
                problem: "must be set with PostgreSQL: every instance needs the same secret (at least 32 bytes)"
            )
        }
        guard case .sqliteFile(let path) = configuration.database else {
            return ServerSecret(key: SymmetricKey(size: .bits256))
        }
        let secretPath = path + ".secret"
        if let data = FileManager.default.contents(atPath: secretPath) {
            guard data.count == 32 else {
                throw ConfigurationError(
                    variable: "GATEHOUSE_SERVER_SECRET",
                    problem: "file \(secretPath) is not 32 bytes"
                )
            }
            return ServerSecret(key: SymmetricKey(data: data))
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        let fd = open(secretPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ConfigurationError(
                variable: "GATEHOUSE_SERVER_SECRET",
                problem: "file \(secretPath) could not be created"
            )
        }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        return ServerSecret(key: key)
    }

    /// HMAC-SHA-256 of `message`, lowercase hex.
    func mac(_ message: String) -> String {
        Hex.encode(Array(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)))
    }

    /// HMAC-SHA-256 of `message`, raw bytes.
    func macBytes(_ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
}

/// Lowercase hex and base64url without padding.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    static func sha256(_ text: String) -> String {
        encode(Array(SHA256.hash(data: Data(text.utf8))))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), text.isASCII else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64).map(Array.init)
    }
}

extension String {
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}
