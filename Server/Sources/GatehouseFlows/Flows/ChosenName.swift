import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// A name a person chose for something they read back later (a factor's or a passkey's friendly
/// name, the issuer an authenticator app shows, a name given beside an ID token): trimmed of
/// surrounding white space, and refused with 400 `validation_failed` when it has more than its
/// maximum of Unicode scalars or holds one that is invisible in text
/// (``Unicode/Scalar/isInvisibleInText``: control and format characters such as bidirectional
/// overrides and zero-width joiners, separators, unassigned and private-use scalars), so that
/// two names that look alike are alike.
///
/// Scalars are counted, not characters, because that is what the API document's patterns can say
/// (`ChosenName`, `Issuer`, `PasskeyName` in `Server/openapi.yaml`).
///
/// Unlike ``DeviceLabel``, which cleans what a client claims about itself, a chosen name is
/// refused rather than changed: the person sees what they typed, or an error.
enum ChosenName {
    /// `raw` without the white space around it; throws a validation error naming `field` when it is
    /// longer than `maximumCharacters` scalars or holds an invisible one.
    static func validated(_ raw: String, field: String, maximumCharacters: Int) throws -> String {
        let name = raw.trimmingWhiteSpace
        guard name.unicodeScalars.count <= maximumCharacters else {
            throw APIError.validation("\(field) must be at most \(maximumCharacters) characters")
        }
        guard !name.unicodeScalars.contains(where: \.isInvisibleInText) else {
            throw APIError.validation("\(field) must not contain control or invisible characters")
        }
        return name
    }
}
