// platforms: iOS, macOS
// expect: cannot find 'SignInWithAppleButton' in scope
// why: SignInWithAppleButton comes from the AuthenticationServices–SwiftUI cross-import overlay: a file
// that imports AuthenticationServices alone does not see it.
import AuthenticationServices

@MainActor
func button() {
    _ = SignInWithAppleButton(onRequest: { _ in }, onCompletion: { _ in })
}
