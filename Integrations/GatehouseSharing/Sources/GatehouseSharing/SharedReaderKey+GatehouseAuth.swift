public import Gatehouse
public import Sharing

extension SharedReaderKey where Self == GatehouseAuthKey.Default {
    /// The app's auth session, from ``Dependencies/DependencyValues/gatehouseAuthService``:
    ///
    /// ```swift
    /// @Shared(.gatehouseAuth) private var auth: AuthSession
    /// ```
    ///
    /// Until the service publishes, the value is `AuthSession()` (``Gatehouse/AuthState/loading``).
    public static var gatehouseAuth: Self {
        Self[GatehouseAuthKey(), default: AuthSession()]
    }

    /// The auth session of an explicit service, for an app with more than one or a preview:
    /// `@Shared(.gatehouseAuth(previewService))`.
    public static func gatehouseAuth(_ service: AuthService) -> Self {
        Self[GatehouseAuthKey(service: service), default: AuthSession()]
    }
}
