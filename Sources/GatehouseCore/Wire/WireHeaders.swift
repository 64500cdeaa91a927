/// HTTP header names and values of the GoTrue protocol.
public enum WireHeaders {
    /// The request header that selects the error envelope, and which the response echoes.
    public static let apiVersion = "X-Supabase-Api-Version"
    /// The API version whose error envelope is `{"code": "...", "message": "..."}`.
    public static let apiVersion20240101 = "2024-01-01"
    /// The response header that carries the error code of every coded error.
    public static let errorCode = "x-sb-error-code"
    /// The header a gateway such as Supabase requires; Gatehouse never does.
    public static let apiKey = "apikey"
    /// The header that identifies the client library and version.
    public static let clientInfo = "X-Client-Info"
}
