import Foundation

/// Reads the few CBOR items (RFC 8949) a passkey credential holds: integers, byte and text
/// strings, booleans, null, arrays and maps with integer or text keys. Strict, as the server
/// is: definite lengths only, no tags or floats, no repeated map keys, limited nesting, and
/// every length checked against the bytes that remain.
struct CBORReader {
    /// Why an input was refused.
    struct Failure: Error {}

    /// A map key.
    enum Key: Hashable {
        case integer(Int64)
        case text(String)
    }

    /// One data item.
    indirect enum Item {
        case integer(Int64)
        case bytes(Data)
        case text(String)
        case bool(Bool)
        case null
        case array([Item])
        case map([Key: Item])

        subscript(key: Key) -> Item? {
            guard case .map(let entries) = self else { return nil }
            return entries[key]
        }

        var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
        var bytes: Data? { if case .bytes(let value) = self { value } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
        var entries: [Key: Item]? { if case .map(let value) = self { value } else { nil } }
    }

    private let bytes: [UInt8]
    /// How many bytes were read so far.
    private(set) var position = 0

    init(_ data: Data) { bytes = Array(data) }

    /// The one item that fills `data`.
    static func decode(_ data: Data) throws(Failure) -> Item {
        var reader = CBORReader(data)
        let item = try reader.read()
        guard reader.position == reader.bytes.count else { throw Failure() }
        return item
    }

    /// Reads the next item.
    mutating func read(depth: Int = 0) throws(Failure) -> Item {
        guard depth <= 8 else { throw Failure() }
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1F
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw Failure()
            }
        }
        let argument = try argument(info)
        switch major {
        case 0:
            guard argument <= UInt64(Int64.max) else { throw Failure() }
            return .integer(Int64(argument))
        case 1:
            guard argument <= UInt64(Int64.max) else { throw Failure() }
            return .integer(-1 - Int64(argument))
        case 2:
            return .bytes(Data(try take(argument)))
        case 3:
            // String(validating:as:) needs iOS 18 / macOS 15; Foundation's decoder refuses
            // invalid UTF-8 on every platform the package declares.
            guard let text = String(data: Data(try take(argument)), encoding: .utf8) else { throw Failure() }
            return .text(text)
        case 4:
            guard argument <= UInt64(remaining) else { throw Failure() }
            var items: [Item] = []
            for _ in 0..<Int(argument) { items.append(try read(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard argument <= UInt64(remaining / 2) else { throw Failure() }
            var entries: [Key: Item] = [:]
            for _ in 0..<Int(argument) {
                let key: Key
                switch try read(depth: depth + 1) {
                case .integer(let value): key = .integer(value)
                case .text(let value): key = .text(value)
                default: throw Failure()
                }
                guard entries[key] == nil else { throw Failure() }
                entries[key] = try read(depth: depth + 1)
            }
            return .map(entries)
        default:
            throw Failure()
        }
    }

    private var remaining: Int { bytes.count - position }

    private mutating func byte() throws(Failure) -> UInt8 {
        guard position < bytes.count else { throw Failure() }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ count: UInt64) throws(Failure) -> ArraySlice<UInt8> {
        guard count <= UInt64(remaining) else { throw Failure() }
        let end = position + Int(count)
        defer { position = end }
        return bytes[position..<end]
    }

    private mutating func argument(_ info: UInt8) throws(Failure) -> UInt64 {
        switch info {
        case 0..<24:
            return UInt64(info)
        case 24...27:
            var value: UInt64 = 0
            for byte in try take(UInt64(1 << Int(info - 24))) { value = value << 8 | UInt64(byte) }
            return value
        default:
            throw Failure()
        }
    }
}
