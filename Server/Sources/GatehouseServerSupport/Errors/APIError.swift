public import GatehouseCore
public import HTTPTypes

/// An error the API answers with: a status, a stable code and a message a person can act on.
///
/// It renders GoTrue's legacy envelope by default and the 2024-01-01 envelope when the request
/// asks for it (see `APIError+Response.swift`). Anything that is not an `APIError` becomes
/// 500 `unexpected_failure` without details.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: ErrorCode
    public var message: String
    public var weakPassword: WeakPasswordInfo?
    /// Seconds before a retry makes sense (sent as `Retry-After`).
    public var retryAfter: Int?

    public init(
        _ status: HTTPResponse.Status,
        _ code: ErrorCode,
        _ message: String,
        weakPassword: WeakPasswordInfo? = nil,
        retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.weakPassword = weakPassword
        self.retryAfter = retryAfter
    }
}

extension APIError {
    package static func badJSON(_ detail: String = "Could not parse request body as JSON.") -> APIError {
        APIError(.badRequest, .badJSON, detail)
    }

    package static func validation(_ message: String) -> APIError {
        APIError(.badRequest, .validationFailed, message)
    }

    package static let invalidCredentials = APIError(.badRequest, .invalidCredentials, "Invalid login credentials")

    package static let noAuthorization = APIError(
        .unauthorized,
        .noAuthorization,
        "This endpoint requires a Bearer token"
    )

    package static func badJWT(_ detail: String) -> APIError {
        APIError(.forbidden, .badJWT, "invalid JWT: unable to parse or verify signature, \(detail)")
    }

    package static let sessionNotFound = APIError(
        .forbidden,
        .sessionNotFound,
        "Session from session_id claim in JWT does not exist"
    )

    package static let userNotFoundForToken = APIError(.forbidden, .userNotFound, "User from sub claim in JWT does not exist")

    package static let userBanned = APIError(.badRequest, .userBanned, "User is banned")

    package static let otpExpired = APIError(.forbidden, .otpExpired, "Token has expired or is invalid")

    package static func rateLimited(retryAfter: Int) -> APIError {
        APIError(
            .tooManyRequests,
            .overRequestRateLimit,
            "Request rate limit reached",
            retryAfter: max(1, retryAfter)
        )
    }

    package static let notAdmin = APIError(.forbidden, .notAdmin, "User not allowed")

    /// 503 `database_unavailable`: the database cannot serve right now; nothing was changed.
    package static let databaseUnavailable = APIError(
        .serviceUnavailable,
        .databaseUnavailable,
        "The database is unavailable; nothing was changed. Try again shortly.",
        retryAfter: 5
    )

    package static let unexpected = APIError(
        .internalServerError,
        .unexpectedFailure,
        "Unexpected failure, please check server logs for more information"
    )
}
