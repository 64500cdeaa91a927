import Gatehouse
import SwiftUI

/// The second factor: a code of the user's authenticator app, after a password or code
/// sign-in of a user who enrolled one.
struct SecondFactorView: View {
    @Environment(AuthService.self) private var auth
    let user: User
    @State private var code = ""
    @State private var failure: String?

    var body: some View {
        NavigationStack {
            Form {
                Section("Code from your authenticator app") {
                    TextField("123456", text: $code)
                    Button("Verify") {
                        Task { await verify() }
                    }
                    .disabled(code.count < 6 || auth.authSession.isLoading)
                }
                if let failure {
                    Section {
                        Text(failure)
                    }
                }
                Section {
                    Button("Sign out") { auth.signOut() }
                }
            }
            .navigationTitle("Two-factor sign-in")
        }
    }

    private func verify() async {
        guard let factor = user.factors.first(where: \.isVerified) else { return }
        do {
            try await auth.mfa.challengeAndVerify(factorID: factor.id, code: code)
            failure = nil
        } catch let error as AuthError {
            failure = error.message
        } catch {
            failure = error.localizedDescription
        }
    }
}
