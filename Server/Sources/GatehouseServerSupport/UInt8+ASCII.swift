/// Byte-level ASCII rules for text read as bytes (header values, bundled lists), where going
/// through `String` and Foundation would cost more than the rule.
extension UInt8 {
    /// This byte with `A`–`Z` turned into `a`–`z`; every other byte unchanged.
    package var asciiLowercased: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
    }

    /// Whether this byte is a space or a horizontal tab (HTTP's optional whitespace).
    package var isSpaceOrTab: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }

    /// Whether this byte stands for itself inside a JSON string as the wire encoder writes it:
    /// printable ASCII other than a quote or a backslash (nothing to escape, nothing to decode).
    package var isPlainJSONStringByte: Bool {
        self >= 0x20 && self < 0x7F && self != UInt8(ascii: "\"") && self != UInt8(ascii: "\\")
    }
}
