extension ErrorCode {
    /// Codes that mean the server has definitively ended the session.
    ///
    /// A client drops its stored session only on one of these; transport failures, rate limits,
    /// 5xx answers and decoding problems never sign a user out.
    public static let sessionEnding: Set<ErrorCode> = [
        .refreshTokenNotFound,
        .refreshTokenAlreadyUsed,
        .sessionNotFound,
        .sessionExpired,
        .userNotFound,
        .userBanned,
    ]

    /// Whether this code means the server has definitively ended the session.
    public var endsSession: Bool { Self.sessionEnding.contains(self) }
}
