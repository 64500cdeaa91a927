import AuthenticationServices
import Gatehouse
import SwiftUI

/// Sign-in: an e-mailed code, Sign in with Apple, or a passkey (a sheet, and on iOS the
/// passkeys of the QuickType bar while the e-mail field has focus).
struct SignInView: View {
    @Environment(AuthService.self) private var auth
    @Environment(\.authorizationController) private var authorizationController
    @State private var email = ""
    @State private var code = ""
    @State private var codeSent = false
    @State private var nonce = SignInNonce()

    var body: some View {
        NavigationStack {
            Form {
                if let reason = auth.sessionEndReason {
                    Section {
                        Text(reason.message)
                    }
                }
                Section("E-mail code") {
                    emailField
                    if codeSent {
                        TextField("Code", text: $code)
                        Button("Sign in") {
                            auth.verifyMagicCode(email: email, code: code)
                        }
                        .disabled(code.isEmpty || auth.authSession.isLoading)
                    } else {
                        Button("Send me a code") {
                            auth.sendMagicCode(to: email) { codeSent = true }
                        }
                        .disabled(email.isEmpty || auth.authSession.isLoading)
                    }
                }
                Section("Or") {
                    SignInWithAppleButton(.signIn) { request in
                        nonce = SignInNonce()
                        request.configure(for: nonce)
                    } onCompletion: { result in
                        if case .success(let authorization) = result {
                            auth.signInWithApple(authorization: authorization, nonce: nonce)
                        }
                    }
                    .frame(height: 44)
                    Button("Sign in with a passkey") {
                        Task { _ = try? await auth.passkeys.signIn(using: authorizationController) }
                    }
                    Button("Continue as a guest") {
                        auth.signInAnonymously()
                    }
                }
                if let error = auth.authSession.error {
                    Section {
                        Text(error.message)
                        if let suggestion = error.recoverySuggestion {
                            Text(suggestion)
                        }
                    }
                }
                if auth.authSession.isLoading {
                    ProgressView()
                }
            }
            .navigationTitle("Sign in")
        }
    }

    @ViewBuilder
    private var emailField: some View {
        #if os(iOS) && !targetEnvironment(macCatalyst)
        TextField("E-mail", text: $email)
            .textContentType(.username)
            .textInputAutocapitalization(.never)
            // Offers the server's passkeys in the QuickType bar; cancelled when the screen goes.
            .task { _ = try? await auth.passkeys.signInWithAutoFill(using: authorizationController) }
        #else
        TextField("E-mail", text: $email)
        #endif
    }
}
