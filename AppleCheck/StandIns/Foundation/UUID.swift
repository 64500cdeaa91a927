// UUID, as the Foundation of Apple's SDKs declares it: swift-foundation
// Sources/FoundationEssentials/UUID.swift; https://developer.apple.com/documentation/foundation/uuid.

// Darwin <uuid/uuid.h>: typedef unsigned char uuid_t[16], imported as a tuple.
public typealias uuid_t = (
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
)

// FoundationEssentials/UUID.swift
public struct UUID: Hashable, Equatable, CustomStringConvertible, Sendable {
    public init() { fatalError() }
    public init?(uuidString string: __shared String) { fatalError() }
    public init(uuid: uuid_t) { fatalError() }
    public var uuid: uuid_t { fatalError() }
    public var uuidString: String { fatalError() }
    public var description: String { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: UUID, rhs: UUID) -> Bool { fatalError() }
}

// FoundationEssentials/UUID.swift
extension UUID: Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
}

// FoundationEssentials/UUID.swift: `@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)`, the
// package's deployment targets, so not repeated here.
extension UUID: Comparable {
    public static func < (lhs: UUID, rhs: UUID) -> Bool { fatalError() }
}
