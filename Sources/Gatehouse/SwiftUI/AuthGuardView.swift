#if canImport(SwiftUI)
public import SwiftUI

/// A root view for gate mode: progress while restoring, sign-in when nobody is signed in,
/// the app when someone is, and a retry when the stored session could not be read.
///
/// All routing decisions come from ``AuthGate``; this view only draws them.
///
/// ```swift
/// AuthGuardView(auth: auth) { user in MainTabView() } signIn: { SignInView() }
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct AuthGuardView<Content: View, SignIn: View>: View {
    private let auth: AuthService
    private let gate: AuthGate
    private let content: (User?) -> Content
    private let signIn: () -> SignIn

    /// Creates the view.
    ///
    /// - Parameters:
    ///   - auth: The app's one ``AuthService``.
    ///   - gate: `.gate` (the default) or `.optional`.
    ///   - content: The app, given the signed-in user (`nil` only in optional mode).
    ///   - signIn: The sign-in screen.
    public init(
        auth: AuthService,
        gate: AuthGate = .gate,
        @ViewBuilder content: @escaping (User?) -> Content,
        @ViewBuilder signIn: @escaping () -> SignIn
    ) {
        self.auth = auth
        self.gate = gate
        self.content = content
        self.signIn = signIn
    }

    public var body: some View {
        Group {
            switch gate.route(for: auth.session) {
            case .progress:
                ProgressView()
            case .signIn:
                signIn()
            case .content(let user):
                content(user)
            case .sessionError(let error):
                VStack(spacing: 12) {
                    Text("Could not restore your session.").font(.headline)
                    Text(error.recoverySuggestion ?? error.message).font(.footnote)
                    Button("Retry") { Task { await auth.restoreSession() } }
                }
                .padding()
            }
        }
        .task { await auth.restoreSession() }
    }
}
#endif
