/// A row holds a value outside the vocabulary of its column (``AuthenticatorAssuranceLevel``,
/// ``AuthenticationMethod``): corrupt data, or a value written by a newer version of the server.
/// Reading the row throws this rather than guess; the request that read it fails with a server
/// error, and the description says which column and value to look at.
public struct StoredValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column, as `table.column`.
    public var column: String
    /// The text the row holds.
    public var value: String
    /// What the column may hold.
    public var expected: String

    /// The error for `value` in `column`, which may hold `expected`.
    public init(column: String, value: String, expected: String) {
        self.column = column
        self.value = value
        self.expected = expected
    }

    public var description: String {
        "\(column) holds \"\(value.prefix(200))\", which this server cannot read (it expects \(expected)): "
            + "the row is corrupt or was written by a newer version of the server"
    }

    /// The case of `Vocabulary` spelled `text` in `column`.
    ///
    /// - Throws: ``StoredValueError`` when `text` is `nil` or not one of its spellings.
    package static func decode<Vocabulary: RawRepresentable & CaseIterable>(
        _ text: String?,
        as _: Vocabulary.Type,
        column: String
    ) throws -> Vocabulary where Vocabulary.RawValue == String {
        guard let text, let value = Vocabulary(rawValue: text) else {
            throw StoredValueError(column: column, value: text ?? "NULL", expected: spellings(of: Vocabulary.self))
        }
        return value
    }

    /// `a, b or c`.
    package static func spellings<Vocabulary: RawRepresentable & CaseIterable>(of _: Vocabulary.Type) -> String
    where Vocabulary.RawValue == String {
        let all = Vocabulary.allCases.map { "`\($0.rawValue)`" }
        guard all.count > 1 else { return all.first ?? "nothing" }
        return all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
    }
}
