/// An error response body in any of GoTrue's envelopes (`protocol.md` §2).
///
/// Decoding is lenient: it reads the 2024-01-01 shape (`code` is a string), the legacy shape
/// (`code` is the HTTP status and `error_code` the string), and the OAuth shape (`error`,
/// `error_description`). Encoding picks the shape with ``encode(to:)`` from ``envelope``.
public struct WireErrorBody: Codable, Sendable, Equatable {
    /// Which envelope to write.
    public enum Envelope: Sendable, Equatable {
        /// `{"code": 400, "error_code": "…", "msg": "…"}`.
        case legacy(status: Int)
        /// `{"code": "…", "message": "…"}`, for `X-Supabase-Api-Version: 2024-01-01`.
        case v20240101
    }

    /// The stable error code; `nil` when the server sent none.
    public var code: ErrorCode?
    /// The server's message for a person (`msg`, `message` or `error_description`).
    public var message: String
    /// Why a password was refused as weak, with ``ErrorCode/weakPassword``.
    public var weakPassword: WeakPasswordInfo?
    /// The request id the server logged the failure under (legacy envelope, server errors).
    public var errorID: String?
    /// The envelope the body came in, or is written in.
    public var envelope: Envelope

    /// Creates an error body to write in `envelope`.
    public init(
        code: ErrorCode?,
        message: String,
        weakPassword: WeakPasswordInfo? = nil,
        errorID: String? = nil,
        envelope: Envelope
    ) {
        self.code = code
        self.message = message
        self.weakPassword = weakPassword
        self.errorID = errorID
        self.envelope = envelope
    }

    enum CodingKeys: String, CodingKey {
        case code, msg, message, error
        case errorCode = "error_code"
        case errorDescription = "error_description"
        case weakPassword = "weak_password"
        case errorID = "error_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let stringCode = try? c.decodeIfPresent(String.self, forKey: .code)
        let numericCode = try? c.decodeIfPresent(Int.self, forKey: .code)
        let errorCode = try? c.decodeIfPresent(String.self, forKey: .errorCode)
        let oauthError = try? c.decodeIfPresent(String.self, forKey: .error)
        if let stringCode {
            code = ErrorCode(stringCode)
            envelope = .v20240101
        } else {
            code = (errorCode ?? oauthError).map(ErrorCode.init(rawValue:))
            envelope = .legacy(status: numericCode ?? 0)
        }
        let candidates: [String?] = [
            try? c.decodeIfPresent(String.self, forKey: .msg),
            try? c.decodeIfPresent(String.self, forKey: .message),
            try? c.decodeIfPresent(String.self, forKey: .errorDescription),
            oauthError,
        ]
        message = candidates.compactMap { $0 }.first ?? ""
        weakPassword = try? c.decodeIfPresent(WeakPasswordInfo.self, forKey: .weakPassword)
        errorID = try? c.decodeIfPresent(String.self, forKey: .errorID)
        if code == nil, stringCode == nil, numericCode == nil, errorCode == nil, oauthError == nil,
            message.isEmpty
        {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not an error body"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch envelope {
        case .legacy(let status):
            try c.encode(status, forKey: .code)
            try c.encodeIfPresent(code, forKey: .errorCode)
            try c.encode(message, forKey: .msg)
        case .v20240101:
            try c.encode(code ?? .unknown, forKey: .code)
            try c.encode(message, forKey: .message)
        }
        try c.encodeIfPresent(weakPassword, forKey: .weakPassword)
        try c.encodeIfPresent(errorID, forKey: .errorID)
    }
}
