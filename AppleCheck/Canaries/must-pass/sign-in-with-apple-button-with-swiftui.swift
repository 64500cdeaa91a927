// why: importing both frameworks brings the cross-import overlay: SignInWithAppleButton, and
// `@Environment(\.authorizationController)` with its main-actor performRequest(_:).
import AuthenticationServices
import SwiftUI

struct SignIn: View {
    @Environment(\.authorizationController) private var authorizationController

    var body: some View {
        SignInWithAppleButton(.signIn) { request in
            request.requestedScopes = [.fullName, .email]
        } onCompletion: { result in
            if case .success(let authorization) = result {
                _ = authorization.credential
            }
        }
    }

    func passkey(_ request: ASAuthorizationRequest) async throws -> Bool {
        if case .appleID = try await authorizationController.performRequest(request) { return true }
        return false
    }
}
