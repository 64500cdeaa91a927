// URLSession and its vocabulary: Foundation/NSURLSession.h, NSURLRequest.h, NSURLResponse.h,
// NSURLCache.h, NSHTTPCookieStorage.h and the Swift overlay (URLRequest is a struct there);
// https://developer.apple.com/documentation/foundation/urlsession. The async `data(for:delegate:)`
// is the overlay's (iOS 15, macOS 12; below the deployment targets).
// Sendable: URLSession, URLSessionConfiguration, URLResponse and HTTPURLResponse are
// NS_SWIFT_SENDABLE in the iOS 16+ SDKs; swift-corelibs-foundation (FoundationNetworking) mirrors
// them as `@unchecked Sendable` — recalled for Apple's headers, not re-read here.

// Foundation/NSURLRequest.h: NSURLRequestCachePolicy (NS_ENUM, not frozen)
extension NSURLRequest {
    public enum CachePolicy: UInt, @unchecked Sendable {
        case useProtocolCachePolicy = 0
        case reloadIgnoringLocalCacheData = 1
        case reloadIgnoringLocalAndRemoteCacheData = 4
        case returnCacheDataElseLoad = 2
        case returnCacheDataDontLoad = 3
        case reloadRevalidatingCacheData = 5
    }
}

// Foundation/NSURLRequest.h
open class NSURLRequest: NSObject, @unchecked Sendable {}

// Foundation.swiftinterface: struct URLRequest
public struct URLRequest: Equatable, Hashable, Sendable {
    public typealias CachePolicy = NSURLRequest.CachePolicy
    public init(url: URL, cachePolicy: CachePolicy = .useProtocolCachePolicy, timeoutInterval: TimeInterval = 60.0) {
        fatalError()
    }
    public var url: URL? {
        get { fatalError() }
        set { fatalError() }
    }
    public var httpMethod: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var httpBody: Data? {
        get { fatalError() }
        set { fatalError() }
    }
    public var timeoutInterval: TimeInterval {
        get { fatalError() }
        set { fatalError() }
    }
    public func value(forHTTPHeaderField field: String) -> String? { fatalError() }
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) { fatalError() }
}

// Foundation/NSURLResponse.h
open class URLResponse: NSObject, @unchecked Sendable {
}

// Foundation/NSURLResponse.h
open class HTTPURLResponse: URLResponse, @unchecked Sendable {
    public init?(url: URL, statusCode: Int, httpVersion HTTPVersion: String?, headerFields: [String: String]?) {
        fatalError()
    }
    open var statusCode: Int { fatalError() }
    open func value(forHTTPHeaderField field: String) -> String? { fatalError() }
}

// Foundation/NSURLCache.h
open class URLCache: NSObject, @unchecked Sendable {}

// Foundation/NSHTTPCookieStorage.h
open class HTTPCookieStorage: NSObject, @unchecked Sendable {}

// Foundation/NSURLSession.h
open class URLSessionConfiguration: NSObject, @unchecked Sendable {
    open class var ephemeral: URLSessionConfiguration { fatalError() }
    open var urlCache: URLCache? {
        get { fatalError() }
        set { fatalError() }
    }
    open var requestCachePolicy: NSURLRequest.CachePolicy {
        get { fatalError() }
        set { fatalError() }
    }
    open var httpCookieStorage: HTTPCookieStorage? {
        get { fatalError() }
        set { fatalError() }
    }
    open var httpShouldSetCookies: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}

// Foundation/NSURLSession.h: @protocol NSURLSessionTaskDelegate <NSURLSessionDelegate>
public protocol URLSessionDelegate: NSObjectProtocol, Sendable {}
public protocol URLSessionTaskDelegate: URLSessionDelegate {}

// Foundation/NSURLSession.h and the overlay's async methods
open class URLSession: NSObject, @unchecked Sendable {
    open class var shared: URLSession { fatalError() }
    public init(configuration: URLSessionConfiguration) { fatalError() }
    public func data(
        for request: URLRequest,
        delegate: (any URLSessionTaskDelegate)? = nil
    ) async throws -> (Data, URLResponse) {
        fatalError()
    }
    public func data(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (Data, URLResponse) {
        fatalError()
    }
}
