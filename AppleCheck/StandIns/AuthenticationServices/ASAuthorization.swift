// AuthenticationServices as the SDK uses it. Every header of the framework is audited for
// sendability (NS_HEADER_AUDIT_BEGIN(nullability, sendability) since the Xcode 14.3 SDKs): a class
// not marked NS_SWIFT_SENDABLE is not Sendable, so none of the classes below is Sendable.
// NOTE: that is the SDKs up to Xcode 16 (iOS 18). Apple's documentation as of the Xcode 26 SDKs
// lists Sendable among the conformances of ASAuthorization, ASAuthorizationAppleIDCredential, the
// platform passkey requests, credentials and descriptor (not of ASAuthorizationController), e.g.
// https://developer.apple.com/documentation/authenticationservices/asauthorization. The package's
// swift-tools-version 6.2 needs Xcode 26, so the check is stricter than the SDK it builds with:
// code that sends these objects across actors fails here and may pass in Xcode; code that passes
// here passes there. Kept non-Sendable on purpose (issue 30's canary depends on it; README).
// Availability is transcribed from https://developer.apple.com/documentation/authenticationservices
// (2026); introductions at or below the deployment targets (iOS 17, macOS 14, tvOS 17, watchOS 10,
// visionOS 1) are left out, as they cannot fail; later ones and every `unavailable` are kept.
// Objective-C `@optional` protocol requirements are requirements with default implementations
// here (README, compromises).
@_exported import Foundation

#if canImport(UIKit)
@_exported import UIKit
#endif
#if canImport(AppKit)
@_exported import AppKit
#endif

// AuthenticationServices/ASFoundation.h: ASPresentationAnchor is NSWindow on macOS and UIWindow on
// iOS, Mac Catalyst, tvOS and visionOS; there is none on watchOS
// (https://developer.apple.com/documentation/authenticationservices/aspresentationanchor).
#if os(macOS)
public typealias ASPresentationAnchor = NSWindow
#elseif !os(watchOS)
public typealias ASPresentationAnchor = UIWindow
#endif

// ASAuthorizationProvider.h: @protocol ASAuthorizationProvider <NSObject>
public protocol ASAuthorizationProvider: NSObjectProtocol {}

// ASAuthorizationCredential.h: @protocol ASAuthorizationCredential <NSObject, NSCopying, NSSecureCoding>
public protocol ASAuthorizationCredential: NSObjectProtocol {}

// ASAuthorization.h: @interface ASAuthorization : NSObject (not Sendable)
open class ASAuthorization: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError() }
    open var credential: any ASAuthorizationCredential { fatalError() }

    // ASAuthorization.h: typedef NSString * ASAuthorizationScope NS_TYPED_EXTENSIBLE_ENUM,
    // NS_SWIFT_NAME(ASAuthorization.Scope)
    public struct Scope: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public init(_ rawValue: String) { fatalError() }
        public init(rawValue: String) { fatalError() }
        public var rawValue: String { fatalError() }
        public static var fullName: ASAuthorization.Scope { fatalError() }
        public static var email: ASAuthorization.Scope { fatalError() }
    }
}

// ASAuthorizationRequest.h: @interface ASAuthorizationRequest : NSObject <NSCopying, NSSecureCoding>
open class ASAuthorizationRequest: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError() }
}

// non-frozen `enum Code`
// (https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct).
public struct ASAuthorizationError: Error, Hashable, Sendable {
    public enum Code: Int, @unchecked Sendable, Equatable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        case matchedExcludedCredential = 1006
    }
    public init(_ code: Code, userInfo: [String: Any] = [:]) { fatalError() }
    public var code: Code { fatalError() }
    public var errorCode: Int { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError() }
}
