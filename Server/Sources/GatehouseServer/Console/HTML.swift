import GatehouseFlows
import GatehouseStorage

/// Markup for the console's pages, escaped by construction: literal text is trusted markup,
/// and every `String` interpolated into it is escaped (`&`, `<`, `>`, `"`, `'`), so a user's
/// address, metadata or device label can never become markup. Only another ``HTML`` value is
/// inserted as it is.
///
/// ```swift
/// let cell: HTML = "<td>\(user.email ?? "")</td>"  // "<script>" arrives as "&lt;script&gt;"
/// ```
struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The markup.
    private(set) var markup: String

    init(stringLiteral literal: String) {
        markup = literal
    }

    init(stringInterpolation: Interpolation) {
        markup = stringInterpolation.markup
    }

    /// Nothing.
    static let empty: HTML = ""

    /// `parts` one after another.
    init(joining parts: [HTML]) {
        markup = parts.map(\.markup).joined()
    }

    /// The text with the five characters that matter in HTML (in content and in quoted
    /// attribute values) replaced by their character references.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Builds ``HTML`` from literals (trusted) and interpolations (escaped unless ``HTML``).
    struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text: escaped.
        mutating func appendInterpolation(_ text: String) {
            markup += HTML.escape(text)
        }

        /// Text that may be absent: escaped, nothing when `nil`.
        mutating func appendInterpolation(_ text: String?) {
            markup += HTML.escape(text ?? "")
        }

        /// A number.
        mutating func appendInterpolation(_ number: Int) {
            markup += String(number)
        }

        /// Markup: inserted as it is.
        mutating func appendInterpolation(_ html: HTML) {
            markup += html.markup
        }

        /// Markup, one after another.
        mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { markup += part.markup }
        }
    }
}
