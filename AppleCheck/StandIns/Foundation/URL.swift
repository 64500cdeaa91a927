// URL, URLResourceValues, URLComponents and URLQueryItem, as the Foundation of Apple's SDKs declares
// them: swift-foundation Sources/FoundationEssentials/URL/URL.swift and URLComponents.swift;
// https://developer.apple.com/documentation/foundation/url. Several of these are marked
// `deprecated: 100000.0` there ("to be deprecated"), which never warns; that marking is omitted.

// FoundationEssentials/URL/URL.swift
public struct URL: Equatable, Sendable, Hashable {
    public init?(string: __shared String) { fatalError() }
    public init(fileURLWithPath path: __shared String, isDirectory: Bool) { fatalError() }
    public init(fileURLWithPath path: __shared String) { fatalError() }
    // FoundationEssentials/URL/URL.swift: `public var scheme: String? { get }`
    public var scheme: String? { fatalError() }
    public var host: String? { fatalError() }
    public var port: Int? { fatalError() }
    public var path: String { fatalError() }
    // FoundationEssentials/URL/URL.swift: `public var absoluteString: String { get }`
    public var absoluteString: String { fatalError() }
    public var lastPathComponent: String { fatalError() }
    public func appendingPathComponent(_ pathComponent: String, isDirectory: Bool) -> URL { fatalError() }
    public func appendingPathComponent(_ pathComponent: String) -> URL { fatalError() }
    public func deletingLastPathComponent() -> URL { fatalError() }
    public func appendingPathExtension(_ pathExtension: String) -> URL { fatalError() }
    public mutating func setResourceValues(_ values: URLResourceValues) throws { fatalError() }
}

// FoundationEssentials/URL/URL.swift
extension URL: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { fatalError() }
    public var debugDescription: String { fatalError() }
}

// FoundationEssentials/URL/URL.swift
extension URL: Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
}

// FoundationEssentials/URL/URL.swift (a struct without a Sendable conformance in the SDK)
public struct URLResourceValues {
    public init() { fatalError() }
    public var isExcludedFromBackup: Bool? {
        get { fatalError() }
        set { fatalError() }
    }
}

// FoundationEssentials/URL/URLComponents.swift
public struct URLComponents: Hashable, Equatable, Sendable {
    public init() { fatalError() }
    public init?(url: __shared URL, resolvingAgainstBaseURL resolve: Bool) { fatalError() }
    public init?(string: __shared String) { fatalError() }
    public var url: URL? { fatalError() }
    // FoundationEssentials/URL/URLComponents.swift: the parts, each `{ get set }`; the
    // percent-encoded forms as stored, the others decoded.
    public var scheme: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var host: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var port: Int? {
        get { fatalError() }
        set { fatalError() }
    }
    public var fragment: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var percentEncodedPath: String {
        get { fatalError() }
        set { fatalError() }
    }
    public var percentEncodedQuery: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var path: String {
        get { fatalError() }
        set { fatalError() }
    }
    public var queryItems: [URLQueryItem]? {
        get { fatalError() }
        set { fatalError() }
    }
}

// FoundationEssentials/URL/URLComponents.swift
public struct URLQueryItem: Hashable, Equatable, Sendable {
    public var name: String {
        get { fatalError() }
        set { fatalError() }
    }
    public var value: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public init(name: __shared String, value: __shared String?) { fatalError() }
}
