// Data and its protocols, as the Foundation of Apple's SDKs declares them: swift-foundation
// Sources/FoundationEssentials/Data/Data.swift, Data+Base64.swift, DataProtocol.swift and
// ContiguousBytes.swift; https://developer.apple.com/documentation/foundation/data.

// FoundationEssentials/Data/ContiguousBytes.swift
public protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

// FoundationEssentials/Data/ContiguousBytes.swift
extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}
extension ContiguousArray: ContiguousBytes where Element == UInt8 {}

// FoundationEssentials/Data/DataProtocol.swift
public protocol DataProtocol: RandomAccessCollection where Element == UInt8, SubSequence: DataProtocol {
    associatedtype Regions: BidirectionalCollection
    where Regions.Element: DataProtocol & ContiguousBytes, Regions.Element.SubSequence: ContiguousBytes
    var regions: Regions { get }
    func firstRange<D: DataProtocol, R: RangeExpression>(of: D, in: R) -> Range<Index>? where R.Bound == Index
    func lastRange<D: DataProtocol, R: RangeExpression>(of: D, in: R) -> Range<Index>? where R.Bound == Index
    func copyBytes<DestinationType, R: RangeExpression>(to: UnsafeMutableBufferPointer<DestinationType>, from: R) -> Int
    where R.Bound == Index
}

// FoundationEssentials/Data/DataProtocol.swift
extension DataProtocol {
    public func firstRange<D: DataProtocol, R: RangeExpression>(of data: D, in range: R) -> Range<Index>?
    where R.Bound == Index { fatalError() }
    public func lastRange<D: DataProtocol, R: RangeExpression>(of data: D, in range: R) -> Range<Index>?
    where R.Bound == Index { fatalError() }
    public func copyBytes<DestinationType, R: RangeExpression>(
        to ptr: UnsafeMutableBufferPointer<DestinationType>,
        from range: R
    ) -> Int
    where R.Bound == Index { fatalError() }
}

// FoundationEssentials/Data/DataProtocol.swift
public protocol MutableDataProtocol: DataProtocol, MutableCollection, RangeReplaceableCollection {
    mutating func resetBytes<R: RangeExpression>(in range: R) where R.Bound == Index
}

// FoundationEssentials/Data/DataProtocol.swift
extension Slice: DataProtocol where Base: DataProtocol {
    public typealias Regions = [Base.Regions.Element.SubSequence]
    public var regions: [Base.Regions.Element.SubSequence] { fatalError() }
}

// FoundationEssentials/Data/DataProtocol.swift
extension Array: DataProtocol where Element == UInt8 {
    public var regions: CollectionOfOne<[UInt8]> { fatalError() }
}
extension ArraySlice: DataProtocol where Element == UInt8 {
    public var regions: CollectionOfOne<ArraySlice<UInt8>> { fatalError() }
}
extension Array: MutableDataProtocol where Element == UInt8 {
    public mutating func resetBytes<R: RangeExpression>(in range: R) where R.Bound == Index { fatalError() }
}

// FoundationEssentials/Data/Data.swift
public struct Data: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Sendable, Hashable {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    public init(count: Int) { fatalError() }
    public init() { fatalError() }
    public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { fatalError() }

    public var count: Int {
        get { fatalError() }
        set { fatalError() }
    }
    public mutating func append(_ other: Data) { fatalError() }
    public mutating func append(_ byte: UInt8) { fatalError() }
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == UInt8 { fatalError() }
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Index>, with newElements: C)
    where C.Element == UInt8 { fatalError() }
    public mutating func withUnsafeMutableBytes<ResultType>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> ResultType
    ) rethrows -> ResultType { fatalError() }

    public func subdata(in range: Range<Index>) -> Data { fatalError() }

    public subscript(index: Index) -> UInt8 {
        get { fatalError() }
        set { fatalError() }
    }
    public subscript(bounds: Range<Index>) -> Data {
        get { fatalError() }
        set { fatalError() }
    }
    public var startIndex: Index { fatalError() }
    public var endIndex: Index { fatalError() }
    public func index(before i: Index) -> Index { fatalError() }
    public func index(after i: Index) -> Index { fatalError() }
    public var indices: Range<Int> { fatalError() }

    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (d1: Data, d2: Data) -> Bool { fatalError() }
}

// FoundationEssentials/Data/ContiguousBytes.swift
extension Data: ContiguousBytes {
    public func withUnsafeBytes<ResultType>(
        _ body: (UnsafeRawBufferPointer) throws -> ResultType
    ) rethrows -> ResultType {
        fatalError()
    }
}

// FoundationEssentials/Data/DataProtocol.swift
extension Data: MutableDataProtocol {
    public var regions: CollectionOfOne<Data> { fatalError() }
    public mutating func resetBytes<R: RangeExpression>(in range: R) where R.Bound == Index { fatalError() }
}

// FoundationEssentials/Data/Data.swift
extension Data: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { fatalError() }
    public var debugDescription: String { fatalError() }
}

// FoundationEssentials/Data/Data.swift
extension Data: Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
}

// FoundationEssentials/Data/Data+Base64.swift
extension Data {
    public struct Base64EncodingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    public struct Base64DecodingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    public init?(base64Encoded base64String: __shared String, options: Base64DecodingOptions = []) { fatalError() }
    public func base64EncodedString(options: Base64EncodingOptions = []) -> String { fatalError() }
}
