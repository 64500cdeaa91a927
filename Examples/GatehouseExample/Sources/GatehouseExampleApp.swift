import Gatehouse
import GatehouseGoTrue
import SwiftUI

/// The app: one ``AuthService``, created here and handed to the gate, which puts it in the
/// environment for every screen below.
@main
struct GatehouseExampleApp: App {
    @State private var auth = AuthService(backend: GoTrueBackend(url: ExampleServer.url))

    var body: some Scene {
        WindowGroup {
            RootView(auth: auth)
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
