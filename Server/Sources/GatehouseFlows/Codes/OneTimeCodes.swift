import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import Synchronization

/// E-mailed codes: 6 uniform digits from the CSPRNG (rejection sampling, no modulo bias) plus a
/// 256-bit link token. Only an HMAC of the digits and a SHA-256 of the link token are stored.
package struct OneTimeCodes: Sendable {
    package let secret: ServerSecret
    /// How many codes were compared with a guess (tests check that attempt limits hold under
    /// concurrency).
    var comparisonCount: Int { comparisons.value.load(ordering: .relaxed) }
    private let comparisons = ComparisonCounter()

    init(secret: ServerSecret) {
        self.secret = secret
    }

    /// A freshly issued code: what the user receives and the row that is stored.
    package struct Issued: Sendable {
        package var code: String
        package var linkToken: String
        var record: CodeRecord
    }

    /// Six digits; `UInt32.random(in:)` draws without modulo bias.
    static func digits() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = UInt32.random(in: 0..<1_000_000, using: &generator)
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    /// A new code for `purpose`, sent to `email`, valid `lifetime` seconds from `now`; its link
    /// token starts with `linkPrefix` (`pkce_` for a PKCE flow's link, as GoTrue's).
    func issue(
        userID: UUID,
        purpose: CodePurpose,
        email: String,
        now: Date,
        lifetime: TimeInterval,
        linkPrefix: String = ""
    ) -> Issued {
        let code = Self.digits()
        let link = linkPrefix + Base64URL.encode(SecureRandom.bytes(32))
        let record = CodeRecord(
            userID: userID,
            purpose: purpose,
            codeHash: hash(code: code, email: email, purpose: purpose),
            linkHash: Hex.sha256(link),
            email: email,
            expiresAt: now.addingTimeInterval(lifetime),
            createdAt: now
        )
        return Issued(code: code, linkToken: link, record: record)
    }

    /// The stored HMAC of `code` sent to `email` for `purpose`.
    func hash(code: String, email: String, purpose: CodePurpose) -> String {
        secret.mac("code|\(purpose.rawValue)|\(email.lowercased())|\(code)")
    }

    /// Whether `code` is the one `record` was issued with (constant-time comparison).
    func matches(_ code: String, _ record: CodeRecord) -> Bool {
        comparisons.value.add(1, ordering: .relaxed)
        return ConstantTime.equal(record.codeHash, hash(code: code, email: record.email, purpose: record.purpose))
    }
}

/// A shareable atomic counter.
private final class ComparisonCounter: Sendable {
    let value = Atomic<Int>(0)
}
