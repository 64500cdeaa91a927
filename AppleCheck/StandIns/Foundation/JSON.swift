// JSONEncoder and JSONDecoder, as the Foundation of Apple's SDKs declares them: swift-foundation
// Sources/FoundationEssentials/JSON/JSONEncoder.swift and JSONDecoder.swift (open classes,
// `extension JSONEncoder : @unchecked Sendable {}`);
// https://developer.apple.com/documentation/foundation/jsonencoder.

// FoundationEssentials/JSON/JSONEncoder.swift
open class JSONEncoder {
    public struct OutputFormatting: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
    }

    public enum DateEncodingStrategy: Sendable {
        case deferredToDate
        case secondsSince1970
        case millisecondsSince1970
        case iso8601
        @preconcurrency
        case custom(@Sendable (Date, any Encoder) throws -> Void)
    }

    public enum DataEncodingStrategy: Sendable {
        case deferredToData
        case base64
        @preconcurrency
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    public enum KeyEncodingStrategy: Sendable {
        case useDefaultKeys
        case convertToSnakeCase
        @preconcurrency
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    open var outputFormatting: OutputFormatting {
        get { fatalError() }
        set { fatalError() }
    }
    open var dateEncodingStrategy: DateEncodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    open var dataEncodingStrategy: DataEncodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    open var keyEncodingStrategy: KeyEncodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    @preconcurrency
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { fatalError() }
        set { fatalError() }
    }

    public init() { fatalError() }
    open func encode<T: Encodable>(_ value: T) throws -> Data { fatalError() }
}

// FoundationEssentials/JSON/JSONEncoder.swift
extension JSONEncoder: @unchecked Sendable {}

// FoundationEssentials/JSON/JSONDecoder.swift
open class JSONDecoder {
    public enum DateDecodingStrategy: Sendable {
        case deferredToDate
        case secondsSince1970
        case millisecondsSince1970
        case iso8601
        @preconcurrency
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    public enum DataDecodingStrategy: Sendable {
        case deferredToData
        case base64
        @preconcurrency
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    public enum KeyDecodingStrategy: Sendable {
        case useDefaultKeys
        case convertFromSnakeCase
        @preconcurrency
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    open var dateDecodingStrategy: DateDecodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    open var dataDecodingStrategy: DataDecodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    open var keyDecodingStrategy: KeyDecodingStrategy {
        get { fatalError() }
        set { fatalError() }
    }
    @preconcurrency
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { fatalError() }
        set { fatalError() }
    }

    public init() { fatalError() }
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { fatalError() }
}

// FoundationEssentials/JSON/JSONDecoder.swift
extension JSONDecoder: @unchecked Sendable {}
