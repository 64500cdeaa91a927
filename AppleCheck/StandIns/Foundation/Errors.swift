// LocalizedError and URLError: Foundation/NSError.h, Foundation/NSURLError.h and the Swift
// overlay (swift-foundation Sources/FoundationEssentials/Error/CocoaError.swift for LocalizedError);
// https://developer.apple.com/documentation/foundation/urlerror/code ("struct Code" on Apple
// platforms: an enum in swift-corelibs-foundation, a struct of static constants in Apple's SDK).

// FoundationEssentials/Error/CocoaError.swift
public protocol LocalizedError: Error {
    var errorDescription: String? { get }
    var failureReason: String? { get }
    var recoverySuggestion: String? { get }
    var helpAnchor: String? { get }
}

// FoundationEssentials/Error/CocoaError.swift
extension LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
    public var helpAnchor: String? { fatalError() }
}

// Foundation.swiftinterface (URLError, a struct over NSError in NSURLErrorDomain); the codes are
// the whole vocabulary of Foundation/NSURLError.h (NSURLError… values), since code that maps
// URL errors (ATS, TLS trust, offline) names many of them.
public struct URLError: Error, Hashable, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
    }
    public init(_ code: Code, userInfo: [String: Any] = [:]) { fatalError() }
    public var code: Code { fatalError() }
    public var errorCode: Int { fatalError() }
    public var userInfo: [String: Any] { fatalError() }
    public var failingURL: URL? { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: URLError, rhs: URLError) -> Bool { fatalError() }
}

// Foundation/NSURLError.h (NSURLError… values), as URLError.Code constants.
extension URLError.Code {
    public static var unknown: URLError.Code { .init(rawValue: -1) }
    public static var cancelled: URLError.Code { .init(rawValue: -999) }
    public static var badURL: URLError.Code { .init(rawValue: -1000) }
    public static var timedOut: URLError.Code { .init(rawValue: -1001) }
    public static var unsupportedURL: URLError.Code { .init(rawValue: -1002) }
    public static var cannotFindHost: URLError.Code { .init(rawValue: -1003) }
    public static var cannotConnectToHost: URLError.Code { .init(rawValue: -1004) }
    public static var networkConnectionLost: URLError.Code { .init(rawValue: -1005) }
    public static var dnsLookupFailed: URLError.Code { .init(rawValue: -1006) }
    public static var httpTooManyRedirects: URLError.Code { .init(rawValue: -1007) }
    public static var resourceUnavailable: URLError.Code { .init(rawValue: -1008) }
    public static var notConnectedToInternet: URLError.Code { .init(rawValue: -1009) }
    public static var redirectToNonExistentLocation: URLError.Code { .init(rawValue: -1010) }
    public static var badServerResponse: URLError.Code { .init(rawValue: -1011) }
    public static var userCancelledAuthentication: URLError.Code { .init(rawValue: -1012) }
    public static var userAuthenticationRequired: URLError.Code { .init(rawValue: -1013) }
    public static var zeroByteResource: URLError.Code { .init(rawValue: -1014) }
    public static var cannotDecodeRawData: URLError.Code { .init(rawValue: -1015) }
    public static var cannotDecodeContentData: URLError.Code { .init(rawValue: -1016) }
    public static var cannotParseResponse: URLError.Code { .init(rawValue: -1017) }
    public static var internationalRoamingOff: URLError.Code { .init(rawValue: -1018) }
    public static var callIsActive: URLError.Code { .init(rawValue: -1019) }
    public static var dataNotAllowed: URLError.Code { .init(rawValue: -1020) }
    public static var requestBodyStreamExhausted: URLError.Code { .init(rawValue: -1021) }
    public static var appTransportSecurityRequiresSecureConnection: URLError.Code { .init(rawValue: -1022) }
    public static var fileDoesNotExist: URLError.Code { .init(rawValue: -1100) }
    public static var fileIsDirectory: URLError.Code { .init(rawValue: -1101) }
    public static var noPermissionsToReadFile: URLError.Code { .init(rawValue: -1102) }
    public static var dataLengthExceedsMaximum: URLError.Code { .init(rawValue: -1103) }
    public static var secureConnectionFailed: URLError.Code { .init(rawValue: -1200) }
    public static var serverCertificateHasBadDate: URLError.Code { .init(rawValue: -1201) }
    public static var serverCertificateUntrusted: URLError.Code { .init(rawValue: -1202) }
    public static var serverCertificateHasUnknownRoot: URLError.Code { .init(rawValue: -1203) }
    public static var serverCertificateNotYetValid: URLError.Code { .init(rawValue: -1204) }
    public static var clientCertificateRejected: URLError.Code { .init(rawValue: -1205) }
    public static var clientCertificateRequired: URLError.Code { .init(rawValue: -1206) }
    public static var cannotLoadFromNetwork: URLError.Code { .init(rawValue: -2000) }
}
