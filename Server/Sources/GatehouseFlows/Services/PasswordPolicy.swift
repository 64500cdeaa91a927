import Foundation
import GatehouseCore
import GatehouseServerSupport
import HTTPTypes

/// What a new password must satisfy: 8 to 72 bytes (bcrypt's input limit: refused above, never
/// truncated), no NUL byte, not a common password, not the e-mail's local part.
struct PasswordPolicy: Sendable {
    static let minimumLength = 8
    static let maximumBytes = 72

    let commonPasswords: CommonPasswords

    /// The policy with the bundled list of common passwords.
    ///
    /// - Throws: ``ConfigurationError`` when the list cannot be read: the server does not start
    ///   without it (fail closed).
    static func loadBundled() throws(ConfigurationError) -> PasswordPolicy {
        try bundled.get()
    }

    /// The bundled list, read and indexed once per process: every server a process starts shares
    /// it. (The test suites start hundreds of servers in one process; indexing the list again for
    /// each was two fifths of their CPU in a debug build.)
    private static let bundled = Result { () throws(ConfigurationError) in try load(from: bundledList) }

    /// The bundled list's file.
    static var bundledList: URL? { Bundle.module.url(forResource: "common-passwords", withExtension: "txt") }

    /// The policy with the list of common passwords at `url`; a missing, unreadable or empty
    /// list throws.
    static func load(from url: URL?) throws(ConfigurationError) -> PasswordPolicy {
        let text = url.flatMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) } ?? []
        let common = CommonPasswords(text: text)
        guard common.count > 0 else {
            throw ConfigurationError(
                variable: "common-passwords.txt",
                problem: "(the bundled list of common passwords) cannot be read; reinstall the server"
            )
        }
        return PasswordPolicy(commonPasswords: common)
    }

    func check(_ password: String, email: String?) throws {
        if password.utf8.contains(0) {
            throw APIError(.unprocessableContent, .validationFailed, "Password must not contain a NUL character")
        }
        if password.count < Self.minimumLength {
            throw weak("Password should be at least \(Self.minimumLength) characters.", reason: "length")
        }
        if password.utf8.count > Self.maximumBytes {
            throw weak(
                "Password cannot be longer than \(Self.maximumBytes) bytes (it is \(password.utf8.count)).",
                reason: "length"
            )
        }
        let lowered = password.lowercased()
        if commonPasswords.contains(lowered) {
            throw weak(
                "Password is known to be weak and easy to guess, please choose a different one.",
                reason: "pwned"
            )
        }
        if let local = email?.split(separator: "@").first?.lowercased(), local.count >= 3, lowered == local {
            throw weak("Password must not be your e-mail address.", reason: "characters")
        }
    }

    private func weak(_ message: String, reason: String) -> APIError {
        APIError(
            .unprocessableContent,
            .weakPassword,
            message,
            weakPassword: WeakPasswordInfo(message: message, reasons: [reason])
        )
    }
}
