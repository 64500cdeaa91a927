// The Foundation additions to String the SDK uses: the overlay's NSStringAPI.swift (trimming,
// replacing, components) and swift-foundation Sources/FoundationEssentials/String/String+IO.swift,
// String+Encoding.swift and StringProtocol+Essentials.swift (encodings, Data conversions);
// https://developer.apple.com/documentation/swift/stringprotocol.

// FoundationEssentials/String/String+Encoding.swift
extension String {
    public struct Encoding: RawRepresentable, Sendable, Equatable, Hashable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let ascii = Encoding(rawValue: 1)
        public static let utf8 = Encoding(rawValue: 4)
        public static let isoLatin1 = Encoding(rawValue: 5)
        public static let unicode = Encoding(rawValue: 10)
        public static let utf16 = Encoding(rawValue: 10)
    }

    // Foundation/NSString.h: NSStringCompareOptions (NS_OPTIONS), imported as String.CompareOptions
    public struct CompareOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var caseInsensitive: CompareOptions { .init(rawValue: 1) }
        public static var literal: CompareOptions { .init(rawValue: 2) }
        public static var backwards: CompareOptions { .init(rawValue: 4) }
        public static var anchored: CompareOptions { .init(rawValue: 8) }
        public static var numeric: CompareOptions { .init(rawValue: 64) }
        public static var regularExpression: CompareOptions { .init(rawValue: 1024) }
    }

    // FoundationEssentials/String/String+IO.swift
    public init?(data: __shared Data, encoding: Encoding) { fatalError() }

    // Foundation.swiftinterface (NSStringAPI): `init(format: __shared String, _ arguments: any CVarArg...)`
    public init(format: __shared String, _ arguments: any CVarArg...) { fatalError() }
}

// FoundationEssentials/String/StringProtocol+Essentials.swift and the overlay's NSStringAPI.swift
extension StringProtocol {
    public func data(using encoding: String.Encoding, allowLossyConversion: Bool = false) -> Data? { fatalError() }
    public func trimmingCharacters(in set: CharacterSet) -> String { fatalError() }
    public func replacingOccurrences<Target: StringProtocol, Replacement: StringProtocol>(
        of target: Target,
        with replacement: Replacement,
        options: String.CompareOptions = [],
        range searchRange: Range<Index>? = nil
    ) -> String { fatalError() }
    public func components<T: StringProtocol>(separatedBy separator: T) -> [String] { fatalError() }
    public func components(separatedBy separator: CharacterSet) -> [String] { fatalError() }
    // NSStringAPI.swift: percent encoding, over NSURL.h's nullable
    // `-stringByAddingPercentEncodingWithAllowedCharacters:` and `stringByRemovingPercentEncoding`
    // (https://developer.apple.com/documentation/swift/stringprotocol/addingpercentencoding(withallowedcharacters:),
    // https://developer.apple.com/documentation/swift/stringprotocol/removingpercentencoding).
    public func addingPercentEncoding(withAllowedCharacters allowedCharacters: CharacterSet) -> String? { fatalError() }
    public var removingPercentEncoding: String? { fatalError() }
    public func range<T: StringProtocol>(
        of aString: T,
        options mask: String.CompareOptions = [],
        range searchRange: Range<Index>? = nil,
        locale: Locale? = nil
    ) -> Range<Index>? { fatalError() }
}

// Foundation.swiftinterface: CharacterSet (a struct over NSCharacterSet)
public struct CharacterSet: Equatable, Hashable, Sendable {
    public init() { fatalError() }
    public init(charactersIn string: __shared String) { fatalError() }
    public static var whitespaces: CharacterSet { fatalError() }
    public static var whitespacesAndNewlines: CharacterSet { fatalError() }
    public static var newlines: CharacterSet { fatalError() }
    public static var alphanumerics: CharacterSet { fatalError() }
    public static var decimalDigits: CharacterSet { fatalError() }
    public static var letters: CharacterSet { fatalError() }
    public static var urlQueryAllowed: CharacterSet { fatalError() }
    public func contains(_ member: Unicode.Scalar) -> Bool { fatalError() }
}

// swift-foundation Sources/FoundationEssentials/Locale/Locale.swift
public struct Locale: Hashable, Equatable, Sendable {
    public init(identifier: String) { fatalError() }
    public static var current: Locale { fatalError() }
    public var identifier: String { fatalError() }
}
