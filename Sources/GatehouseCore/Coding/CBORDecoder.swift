import Foundation

/// A strict decoder for the CBOR (RFC 8949) that WebAuthn sends: attestation objects, COSE
/// keys and authenticator extensions. The one CBOR reader of Gatehouse: the server's relying
/// party and the in-memory backend of `GatehouseTesting` both read with it.
///
/// Hostile input is expected, so it refuses rather than guesses:
/// - definite lengths only (no indefinite-length strings, arrays or maps, no breaks);
/// - the shortest form of every integer and length (non-minimal heads are refused, so one
///   value has one encoding);
/// - no tags, floats, `undefined` or other simple values;
/// - map keys are integers or text, never repeated;
/// - text is valid UTF-8;
/// - limits on input size, nesting depth and the number of items.
///
/// Every length is compared with the bytes that remain before it is used, so no input makes
/// it read out of bounds, allocate what the input cannot back, or overflow.
public struct CBORDecoder: Sendable {
    /// The most bytes one input may have.
    public var maximumBytes = 32_768
    /// The deepest nesting of arrays and maps (an attestation object needs 4).
    public var maximumDepth = 8
    /// The most data items in one input.
    public var maximumItems = 1_024

    /// A decoder with the default limits: 32 KiB, nesting 8 deep, 1,024 items.
    public init() {}

    /// Decodes exactly one data item that fills `bytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, length) = try decodePrefix(bytes)
        guard length == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the data item that starts `bytes`; what follows it is left to the caller.
    ///
    /// - Returns: The item and how many bytes it took.
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, length: Int) {
        guard bytes.count <= maximumBytes else { throw .tooLarge }
        var reader = Reader(bytes: bytes, limits: self)
        let value = try reader.item(depth: 0)
        return (value, reader.position)
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: CBORDecoder
        var position = 0
        var items = 0

        var remaining: Int { bytes.count - position }

        mutating func byte() throws(CBORError) -> UInt8 {
            guard position < bytes.count else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func take(_ count: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
            guard count <= UInt64(remaining) else { throw .truncated }
            let end = position + Int(count)
            defer { position = end }
            return bytes[position..<end]
        }

        /// The argument of a head whose additional information is `info`, in its shortest form.
        mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24:
                return UInt64(info)
            case 24...27:
                let width = 1 << Int(info - 24)
                var value: UInt64 = 0
                for byte in try take(UInt64(width)) { value = value << 8 | UInt64(byte) }
                let smallest: UInt64 = info == 24 ? 24 : 1 << (4 << Int(info - 24))
                guard value >= smallest else { throw .nonMinimalEncoding }
                return value
            case 31:
                throw .indefiniteLength
            default:
                throw .reservedAdditionalInformation
            }
        }

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            guard depth <= limits.maximumDepth else { throw .tooDeep }
            items += 1
            guard items <= limits.maximumItems else { throw .tooManyItems }
            let head = try byte()
            let major = head >> 5
            let info = head & 0x1F
            if major == 7 {
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw .unsupportedType
                }
            }
            let argument = try argument(info)
            switch major {
            case 0:
                guard argument <= UInt64(Int64.max) else { throw .integerOutOfRange }
                return .integer(Int64(argument))
            case 1:
                guard argument <= UInt64(Int64.max) else { throw .integerOutOfRange }
                return .integer(-1 - Int64(argument))
            case 2:
                return .bytes(Array(try take(argument)))
            case 3:
                // String(validating:as:) needs iOS 18 / macOS 15; Foundation's decoder refuses
                // invalid UTF-8 on every platform the package declares.
                guard let text = String(data: Data(try take(argument)), encoding: .utf8) else { throw .invalidUTF8 }
                return .text(text)
            case 4:
                // Every item takes at least one byte: a count above what remains cannot be real.
                guard argument <= UInt64(remaining) else { throw .truncated }
                var elements: [CBORValue] = []
                elements.reserveCapacity(Int(argument))
                for _ in 0..<Int(argument) { elements.append(try item(depth: depth + 1)) }
                return .array(elements)
            case 5:
                guard argument <= UInt64(remaining / 2) else { throw .truncated }
                var entries: [(key: CBORValue, value: CBORValue)] = []
                entries.reserveCapacity(Int(argument))
                for _ in 0..<Int(argument) {
                    let key = try item(depth: depth + 1)
                    switch key {
                    case .integer, .text: break
                    default: throw .invalidMapKey
                    }
                    guard !entries.contains(where: { $0.key == key }) else { throw .duplicateMapKey }
                    entries.append((key, try item(depth: depth + 1)))
                }
                return .map(entries)
            default:
                // Major type 6: tags.
                throw .unsupportedType
            }
        }
    }
}

/// Why ``CBORDecoder`` refused an input.
public enum CBORError: Error, Sendable, Equatable {
    /// The input ends inside an item, or a length or count exceeds what remains.
    case truncated
    /// Bytes follow the one item the input should hold.
    case trailingBytes
    /// An indefinite-length string, array or map, or a break.
    case indefiniteLength
    /// Additional information 28, 29 or 30.
    case reservedAdditionalInformation
    /// An integer or length not in its shortest form.
    case nonMinimalEncoding
    /// A tag, a float, `undefined` or another simple value.
    case unsupportedType
    /// An integer outside `Int64`.
    case integerOutOfRange
    /// Text that is not UTF-8.
    case invalidUTF8
    /// A map key that is not an integer or text.
    case invalidMapKey
    /// A map key that occurs twice.
    case duplicateMapKey
    /// More nesting than ``CBORDecoder/maximumDepth``.
    case tooDeep
    /// More bytes than ``CBORDecoder/maximumBytes``.
    case tooLarge
    /// More items than ``CBORDecoder/maximumItems``.
    case tooManyItems
}
