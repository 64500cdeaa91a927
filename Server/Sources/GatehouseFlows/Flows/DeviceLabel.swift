import GatehouseServerSupport
import GatehouseStorage
package import HTTPTypes

/// The label a session shows in `GET /user/sessions`: what the client said it is at sign-in,
/// resolved at the edge (the controllers, from the body and headers) and passed to the flows.
///
/// Taken from the body's `device` field, else the `X-Client-Info` header, else the
/// `User-Agent`. Every source is the client's own claim, so the label is only shown, never
/// trusted: control and format characters become spaces, runs of spaces fold into one, and it
/// is cut to ``maximumCharacters`` characters (and ``maximumBytes`` bytes).
package enum DeviceLabel {
    /// The longest label kept, in characters.
    static let maximumCharacters = 64
    /// The longest label kept, in UTF-8 bytes (a character may be many scalars).
    static let maximumBytes = 256

    static let clientInfo = HTTPField.Name("X-Client-Info")!

    /// The label for a sign-in: `field` when it has one, else the request's headers.
    package static func resolve(field: String?, headers: HTTPFields) -> String? {
        sanitized(field) ?? sanitized(headers[clientInfo]) ?? sanitized(headers[.userAgent])
    }

    /// `raw` made safe to show and store; `nil` when nothing printable is left.
    static func sanitized(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var label = ""
        var pendingSpace = false
        for character in raw.prefix(maximumCharacters * 4) {
            if character.isWhitespace || character.unicodeScalars.contains(where: \.isInvisibleInText) {
                pendingSpace = !label.isEmpty
                continue
            }
            let piece = pendingSpace ? " " + String(character) : String(character)
            guard label.count + piece.count <= maximumCharacters, label.utf8.count + piece.utf8.count <= maximumBytes
            else { break }
            label += piece
            pendingSpace = false
        }
        return label.isEmpty ? nil : label
    }
}
