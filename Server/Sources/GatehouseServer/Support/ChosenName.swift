import Foundation

/// A name a person chose for something they read back later (a factor's or a passkey's friendly
/// name, the issuer an authenticator app shows): trimmed of surrounding white space, and refused
/// with 400 `validation_failed` when it is too long or holds a character that is invisible in
/// text (``Unicode/Scalar/isInvisibleInText``: control and format characters such as
/// bidirectional overrides and zero-width joiners, separators, unassigned and private-use
/// scalars), so that two names that look alike are alike.
///
/// Unlike ``DeviceLabel``, which cleans what a client claims about itself, a chosen name is
/// refused rather than changed: the person sees what they typed, or an error.
enum ChosenName {
    /// `raw` trimmed; throws a validation error naming `field` when it is longer than
    /// `maximumCharacters` characters (or 4 bytes a character) or holds an invisible character.
    static func validated(_ raw: String, field: String, maximumCharacters: Int) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= maximumCharacters, name.utf8.count <= maximumCharacters * 4 else {
            throw APIError.validation("\(field) must be at most \(maximumCharacters) characters")
        }
        guard !name.unicodeScalars.contains(where: \.isInvisibleInText) else {
            throw APIError.validation("\(field) must not contain control or invisible characters")
        }
        return name
    }
}
