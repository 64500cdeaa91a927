import Dependencies
import Gatehouse
import GatehouseGoTrue
import GatehouseSharing
import SwiftUI

/// The app: one ``AuthService``, created here, in two tabs: the observable API (the gate, which
/// puts the service in the environment for every screen below it) and seed 002's `@Shared` API
/// (SharedAuthDemo.swift), which finds the same service through the dependency set here.
@main
struct GatehouseExampleApp: App {
    @State private var auth: AuthService

    init() {
        let auth = AuthService(backend: GoTrueBackend(url: ExampleServer.url))
        prepareDependencies { $0.gatehouseAuthService = auth }
        _auth = State(wrappedValue: auth)
    }

    var body: some Scene {
        WindowGroup {
            TabView {
                RootView(auth: auth)
                    .tabItem { Label("Observable", systemImage: "person.crop.circle") }
                AuthDemo()
                    .environment(auth)
                    .task { await auth.restoreSessionIfNeeded() }
                    .tabItem { Label("@Shared", systemImage: "person.2.circle") }
            }
        }
    }
}

/// The gate: progress while the stored session is restored, the sign-in screen when nobody is
/// signed in, the second-factor screen while a code is due, the account otherwise.
struct RootView: View {
    let auth: AuthService

    var body: some View {
        AuthGuardView(auth: auth) { user in
            if let user {
                AccountView(user: user)
            }
        } signIn: {
            SignInView()
        } secondFactor: { user in
            SecondFactorView(user: user)
        }
    }
}
