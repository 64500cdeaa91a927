// _AuthenticationServices_SwiftUI: the cross-import overlay of AuthenticationServices with SwiftUI.
// A file that imports both frameworks imports it too (AppleCheck/run, CROSS_IMPORTS), which is how
// SwiftUI apps get `SignInWithAppleButton` and `@Environment(\.authorizationController)` — public
// apps name the module to reach SignInWithAppleButton (`import _AuthenticationServices_SwiftUI`).
// The documentation files these declarations under "Authentication Services"
// (https://developer.apple.com/documentation/authenticationservices/authorizationcontroller,
// …/asauthorizationresult, …/signinwithapplebutton) and EnvironmentValues.authorizationController
// under SwiftUI; that AuthorizationController, ASAuthorizationResult and the environment value live
// in this overlay (rather than in AuthenticationServices itself) is inferred from their naming both
// frameworks' types, NOT VERIFIED against the SDK's module. Code that imports both frameworks, as the
// SDK's SwiftUI file and the sample app do, sees them the same way wherever they live.
// An overlay re-exports the modules it joins, as Swift requires of a cross-import overlay.
@_exported import AuthenticationServices
@_exported import SwiftUI

// https://developer.apple.com/documentation/authenticationservices/asauthorizationresult: "enum
// ASAuthorizationResult", Sendable; iOS 16.4, Mac Catalyst 16.4, macOS 13.3, tvOS 16.4, visionOS 1,
// watchOS 9.4 (below the deployment targets: left out). A non-frozen enum (this module is built with
// library evolution): a switch over it needs `default`. Only the cases whose payload types the
// stand-ins declare are transcribed — appleID(_:), passkeyAssertion(_:) and passkeyRegistration(_:)
// (…/passkeyassertion(_:): iOS 16.4, macOS 13.3, Mac Catalyst 16.4, tvOS 16.4, visionOS 1, not
// watchOS); customMethod, password, securityKeyAssertion, securityKeyRegistration and
// passkeyAccountCreation (iOS 26) are left out. Sendable is declared `@unchecked`: its payload
// classes are not Sendable in these stand-ins (ASAuthorization.swift).
public enum ASAuthorizationResult: @unchecked Sendable {
    // …/asauthorizationresult/appleid(_:)
    case appleID(ASAuthorizationAppleIDCredential)
    // …/asauthorizationresult/passkeyassertion(_:)
    @available(watchOS, unavailable)
    case passkeyAssertion(ASAuthorizationPlatformPublicKeyCredentialAssertion)
    // …/asauthorizationresult/passkeyregistration(_:)
    @available(watchOS, unavailable)
    case passkeyRegistration(ASAuthorizationPlatformPublicKeyCredentialRegistration)
}

// https://developer.apple.com/documentation/authenticationservices/authorizationcontroller:
// "@MainActor struct AuthorizationController", Sendable; iOS 16.4, Mac Catalyst 16.4, macOS 13.3,
// tvOS 16.4, visionOS 1, watchOS 9.4.
@MainActor
public struct AuthorizationController: Sendable {
    // …/authorizationcontroller/performrequest(_:): "@MainActor func performRequest(_ request:
    // ASAuthorizationRequest) async throws -> ASAuthorizationResult" (every platform above).
    public func performRequest(_ request: ASAuthorizationRequest) async throws -> ASAuthorizationResult {
        fatalError()
    }

    // …/authorizationcontroller/performautofillassistedrequest(_:): "@MainActor func
    // performAutoFillAssistedRequest(_ request: ASAuthorizationRequest) async throws ->
    // ASAuthorizationResult" — iOS 16.4, iPadOS 16.4 and visionOS 1 only: not macOS, Mac Catalyst,
    // tvOS or watchOS.
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public func performAutoFillAssistedRequest(_ request: ASAuthorizationRequest) async throws
        -> ASAuthorizationResult
    {
        fatalError()
    }
}

// https://developer.apple.com/documentation/swiftui/environmentvalues/authorizationcontroller: "var
// authorizationController: AuthorizationController { get }" (iOS 16.4, Mac Catalyst 16.4, macOS 13.3,
// tvOS 16.4, watchOS 9.4; the page lists no visionOS, whose availability Swift infers from iOS's).
extension EnvironmentValues {
    public var authorizationController: AuthorizationController { fatalError() }
}

// https://developer.apple.com/documentation/authenticationservices/signinwithapplebutton: "@MainActor
// @preconcurrency struct SignInWithAppleButton", a View and Sendable; iOS 14, Mac Catalyst 14,
// macOS 11, tvOS 14, visionOS 1, watchOS 7.
@MainActor @preconcurrency
public struct SignInWithAppleButton: View, Sendable {
    // …/signinwithapplebutton/label: "struct Label" with `static let signIn`, `continue`, `signUp`.
    // Its conformances are not printed there; Sendable here (a static let of it must be).
    public struct Label: Sendable {
        public static let signIn = Label()
        public static let `continue` = Label()
        public static let signUp = Label()
        private init() {}
    }

    // …/signinwithapplebutton/init(_:onrequest:oncompletion:): "nonisolated init(_ label:
    // SignInWithAppleButton.Label = .signIn, onRequest: @escaping (ASAuthorizationAppleIDRequest) ->
    // Void, onCompletion: @escaping (Result<ASAuthorization, any Error>) -> Void)" — neither closure
    // is @Sendable or @MainActor: closures written in a view's body are isolated to the main actor.
    nonisolated public init(
        _ label: SignInWithAppleButton.Label = .signIn,
        onRequest: @escaping (ASAuthorizationAppleIDRequest) -> Void,
        onCompletion: @escaping (Result<ASAuthorization, any Error>) -> Void
    ) {
        fatalError()
    }

    public typealias Body = Never
    public var body: Never { fatalError() }
}
