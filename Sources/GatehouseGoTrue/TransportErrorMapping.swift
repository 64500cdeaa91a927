public import Foundation
public import Gatehouse

/// What a failed request means to a person, by `URLError` code: offline, the server not
/// reachable, a timeout, a plain `http://` URL that App Transport Security blocks, a TLS
/// certificate the device does not trust. Only the first three may pass by retrying.
public enum TransportErrorMapping {
    /// The `AuthError` for any error a transport threw.
    public static func authError(for error: any Error) -> AuthError {
        if let error = error as? AuthError { return error }
        if error is CancellationError { return AuthError.wrapping(error) }
        if let error = error as? URLError { return authError(for: error) }
        return .networkUnavailable(underlying: String(describing: error))
    }

    /// The `AuthError` for a `URLError`.
    public static func authError(for error: URLError) -> AuthError {
        let underlying = "URLError \(error.code.rawValue)"
        switch error.code {
        case .cancelled:
            return AuthError.wrapping(CancellationError())
        case .timedOut:
            return AuthError(
                code: .requestTimeout,
                message: "The server did not answer in time.",
                recoverySuggestion: "Check your connection and try again.",
                isRetryable: true,
                underlying: underlying
            )
        case .notConnectedToInternet, .networkConnectionLost, .dataNotAllowed, .internationalRoamingOff,
            .callIsActive:
            return AuthError(
                code: .networkUnavailable,
                message: "You are offline.",
                recoverySuggestion: "Check your connection and try again.",
                isRetryable: true,
                underlying: underlying
            )
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .resourceUnavailable:
            return AuthError(
                code: .networkUnavailable,
                message: "The server could not be reached.",
                recoverySuggestion: "Check that the server is running and that its address is right, then try again.",
                isRetryable: true,
                underlying: underlying
            )
        case .appTransportSecurityRequiresSecureConnection:
            return AuthError(
                code: .insecureConnectionBlocked,
                message: "App Transport Security blocked a plain HTTP connection to the server.",
                recoverySuggestion:
                    "Use an https:// server URL. While developing against a local server, allow it in the app's "
                    + "Info.plist (NSAppTransportSecurity: NSAllowsLocalNetworking, or an NSExceptionDomains entry).",
                underlying: underlying
            )
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid:
            return AuthError(
                code: .secureConnectionFailed,
                message: "The server's certificate is not trusted.",
                recoverySuggestion:
                    "Check the server's TLS certificate (its chain, its dates and its host name); on a public "
                    + "network, a captive portal or a proxy may be intercepting the connection.",
                underlying: underlying
            )
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return AuthError(
                code: .secureConnectionFailed,
                message: "A secure connection to the server could not be made.",
                recoverySuggestion:
                    "Check the server's TLS setup; on a public network, sign in to its portal or try another network.",
                isRetryable: true,
                underlying: underlying
            )
        case .badURL, .unsupportedURL:
            return AuthError(
                code: .validationFailed,
                message: "The server URL is not valid.",
                recoverySuggestion: "Check the server URL the app is configured with.",
                underlying: underlying
            )
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource, .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .invalidResponse(underlying: underlying)
        default:
            return .networkUnavailable(underlying: underlying)
        }
    }

    /// Whether a failed idempotent request may be sent once more: the connection failed or
    /// timed out before an answer came.
    static func allowsRetry(_ error: AuthError) -> Bool {
        error.code == .networkUnavailable || error.code == .requestTimeout
    }
}
