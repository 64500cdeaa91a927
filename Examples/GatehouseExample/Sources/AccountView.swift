import AuthenticationServices
import Gatehouse
import SwiftUI

/// The signed-in account: its status, a passkey to add, and sign-out.
struct AccountView: View {
    @Environment(AuthService.self) private var auth
    @Environment(\.authorizationController) private var authorizationController
    let user: User
    @State private var message: String?

    var body: some View {
        NavigationStack {
            Form {
                Section("Account") {
                    AccountStatusView(auth: auth)
                    if user.isAnonymous {
                        Text("Guest: add a passkey to keep this account.")
                    }
                }
                Section("Passkeys") {
                    Button(user.isAnonymous ? "Keep this account with a passkey" : "Add a passkey") {
                        Task { await addPasskey() }
                    }
                    if let message {
                        Text(message)
                    }
                }
                Section {
                    Button("Sign out") { auth.signOut() }
                }
            }
            .navigationTitle(user.email ?? "Account")
        }
    }

    private func addPasskey() async {
        do {
            try await auth.passkeys.register(using: authorizationController, name: "Gatehouse example")
            message = "Passkey added."
        } catch let error as AuthError {
            message = error.recoverySuggestion.map { "\(error.message) \($0)" } ?? error.message
        } catch {
            message = error.localizedDescription
        }
    }
}
