/// One CBOR data item of the subset WebAuthn uses (RFC 8949): integers, byte and text strings,
/// arrays, maps, `true`, `false` and `null`. Tags, floats and `undefined` never occur in
/// attestation objects, COSE keys or authenticator extensions, so ``CBORDecoder`` refuses them.
public enum CBORValue: Sendable, Equatable {
    /// An integer, major types 0 and 1; CBOR's full range of −2^64…2^64−1 does not fit, so
    /// the decoder refuses what is outside `Int64` (no WebAuthn field comes near it).
    case integer(Int64)
    /// A byte string, major type 2.
    case bytes([UInt8])
    /// A UTF-8 text string, major type 3.
    case text(String)
    /// An array, major type 4.
    case array([CBORValue])
    /// Entries in the order they were encoded; keys are distinct (the decoder checks).
    case map([(key: CBORValue, value: CBORValue)])
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Whether two items are the same, map entries compared in their order.
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The value under `key` in a map, `nil` for a missing key or a value that is not a map.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value under the text key `key` in a map.
    public subscript(text key: String) -> CBORValue? { self[.text(key)] }

    /// The value under the integer key `key` in a map (COSE labels).
    public subscript(label key: Int64) -> CBORValue? { self[.integer(key)] }

    /// The integer, if this is one.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The byte string, if this is one.
    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The text, if this is text.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var array: [CBORValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries in their order, if this is a map.
    public var mapEntries: [(key: CBORValue, value: CBORValue)]? {
        if case .map(let value) = self { return value }
        return nil
    }
}
