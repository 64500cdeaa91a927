import Gatehouse
import GatehouseSharing
import Sharing
import SwiftUI

// Seed 002's "@Shared Auth API" examples, as its apps are written: `@Shared(.gatehouseAuth)` in
// place of the seed's `.instantAuth`, everything else as the seed reads ("Full Auth Flow",
// "Basic Sign In", "Magic Code Flow"). Gatehouse's one extra state, `.secondFactorRequired`, and
// the seed's two sign-in examples shown on one screen are marked below. The same AuthService is
// behind both tabs of the app (GatehouseExampleApp.swift connects it with prepareDependencies).

// MARK: - Full Auth Flow

struct AuthDemo: View {
    @Shared(.gatehouseAuth) private var auth: AuthSession

    var body: some View {
        switch auth.state {
        case .loading:
            ProgressView("Checking authentication...")

        case .unauthenticated:
            LoginView()
            MagicCodeView()  // Gatehouse: the seed's "Magic Code Flow", on the same screen

        case .guest(let user):
            MainContent(user: user, isGuest: true)

        case .authenticated(let user):
            MainContent(user: user, isGuest: false)

        case .secondFactorRequired(let user):
            // Gatehouse: a user who enrolled an authenticator app enters its code first. Seed 002
            // has no operation for it; the observable API's screen asks (`auth.mfa`).
            SecondFactorView(user: user)
        }
    }
}

struct MainContent: View {
    let user: User
    let isGuest: Bool

    @Shared(.gatehouseAuth) private var auth: AuthSession

    var body: some View {
        VStack {
            Text("Welcome, \(user.email ?? "Guest")!")

            Button("Sign Out") {
                $auth.signOut()
            }
            .disabled(auth.isLoading)
        }
    }
}

// MARK: - Basic Sign In

struct LoginView: View {
    @Shared(.gatehouseAuth) private var auth: AuthSession

    var body: some View {
        VStack {
            Button("Continue as Guest") {
                $auth.signInAsGuest()
            }
            .disabled(auth.isLoading)

            if auth.isLoading {
                ProgressView()
            }

            if let error = auth.error {
                HStack {
                    Text(error.localizedDescription)
                    Button("Dismiss") {
                        $auth.clearError()
                    }
                }
                .foregroundStyle(.red)
            }
        }
    }
}

// MARK: - Magic Code Flow

struct MagicCodeView: View {
    @Shared(.gatehouseAuth) private var auth: AuthSession

    @State private var email = ""
    @State private var code = ""
    @State private var codeSent = false

    var body: some View {
        VStack {
            if !codeSent {
                // Step 1: Enter email
                TextField("Email", text: $email)

                Button("Send Code") {
                    $auth.sendMagicCode(to: email) {
                        codeSent = true
                    }
                }
                .disabled(auth.isLoading || email.isEmpty)

            } else {
                // Step 2: Enter code
                TextField("Code", text: $code)

                Button("Verify") {
                    $auth.verifyMagicCode(email: email, code: code)
                }
                .disabled(auth.isLoading || code.isEmpty)
            }

            if auth.isLoading {
                ProgressView()
            }

            if let error = auth.error {
                Text(error.localizedDescription)
                    .foregroundStyle(.red)
            }
        }
    }
}
