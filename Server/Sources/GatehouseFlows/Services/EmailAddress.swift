import Foundation
import GatehouseServerSupport

/// E-mail address checks and normalisation.
enum EmailAddress {
    /// The address without the white space around it, lowercased, or 400 `validation_failed`
    /// unless it has exactly one `@`, something before it, a domain that has a dot and neither
    /// starts nor ends with one, no white space or NUL, and at most 254 bytes.
    ///
    /// Read scalar by scalar (a combining mark after the `@` does not hide it), so that the API
    /// document's pattern for `EmailAddress` says exactly what is accepted.
    static func normalized(_ raw: String?) throws -> String {
        let email = (raw ?? "").trimmingWhiteSpace.lowercased()
        let scalars = email.unicodeScalars
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            parts[1].first != ".", parts[1].last != ".",
            !scalars.contains(where: { $0.properties.isWhitespace || $0 == "\0" })
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
