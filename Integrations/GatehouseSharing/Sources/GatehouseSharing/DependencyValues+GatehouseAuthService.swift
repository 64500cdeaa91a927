public import Dependencies
public import Gatehouse

extension DependencyValues {
    /// The app's ``Gatehouse/AuthService``, which `@Shared(.gatehouseAuth)` reads. Set it once,
    /// where the app creates the service:
    ///
    /// ```swift
    /// @main
    /// struct MyApp: App {
    ///     let auth = AuthService(backend: GoTrueBackend(url: serverURL))
    ///     init() { prepareDependencies { $0.gatehouseAuthService = auth } }
    ///     var body: some Scene { WindowGroup { RootView() } }
    /// }
    /// ```
    public var gatehouseAuthService: AuthService? {
        get { self[GatehouseAuthServiceKey.self] }
        set { self[GatehouseAuthServiceKey.self] = newValue }
    }
}

/// No service until the app sets one; previews and tests set their own.
private enum GatehouseAuthServiceKey: DependencyKey {
    static let liveValue: AuthService? = nil
    static let testValue: AuthService? = nil
}
