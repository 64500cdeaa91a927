import Foundation

/// E-mail address checks and normalisation.
enum EmailAddress {
    /// The trimmed, lowercased address, or 400 `validation_failed`.
    static func normalized(_ raw: String?) throws -> String {
        let email = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0 == "\0" })
        else {
            throw APIError.validation("Unable to validate email address: invalid format")
        }
        return email
    }

    /// The address with its local part masked, for logs.
    static func masked(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@") else { return "***" }
        return String(email.prefix(1)) + "***" + String(email[at...])
    }
}
