// Apple-only call sites in this file (SwiftUI): View, ProgressView, VStack, Text, Button,
// ForEach, confirmationDialog, .environment(_:) and .task. The routing, the actions and the
// texts come from AuthGate and AuthGateTexts, which are tested on Linux.
#if canImport(SwiftUI)
public import SwiftUI

/// A root view for gate mode: progress while restoring, sign-in when nobody is signed in,
/// the second-factor screen while a code of the user's authenticator app is due, the app when
/// someone is signed in, and a session-error screen when the stored session could not be
/// read (retry when the error may pass, "Sign in again" after a confirmation when it cannot).
///
/// All routing decisions come from ``AuthGate``; this view only draws them. It restores the
/// session once (``AuthService/restoreSessionIfNeeded()``), so a second window or a view shown
/// again never restarts the restore or cancels a sign-in, and it puts the service in the
/// environment for the views below (`@Environment(AuthService.self)`).
///
/// ```swift
/// AuthGuardView(auth: auth) { user in MainTabView() } signIn: { SignInView() } secondFactor: { user in
///     CodeEntryView(user: user)  // auth.mfa.challengeAndVerify(factorID:code:)
/// }
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct AuthGuardView<Content: View, SignIn: View, SecondFactor: View>: View {
    private let auth: AuthService
    private let gate: AuthGate
    private let texts: AuthGateTexts
    private let content: (User?) -> Content
    private let signIn: () -> SignIn
    private let secondFactor: (User) -> SecondFactor
    @State private var confirmingSignInAgain = false

    /// Creates the view.
    ///
    /// - Parameters:
    ///   - auth: The app's one ``AuthService``.
    ///   - gate: `.gate` (the default) or `.optional`.
    ///   - texts: The session-error screen's words (localizable defaults).
    ///   - content: The app, given the signed-in user (`nil` only in optional mode).
    ///   - signIn: The sign-in screen.
    ///   - secondFactor: The screen that asks for a code of the user's authenticator app.
    public init(
        auth: AuthService,
        gate: AuthGate = .gate,
        texts: AuthGateTexts = AuthGateTexts(),
        @ViewBuilder content: @escaping (User?) -> Content,
        @ViewBuilder signIn: @escaping () -> SignIn,
        @ViewBuilder secondFactor: @escaping (User) -> SecondFactor
    ) {
        self.auth = auth
        self.gate = gate
        self.texts = texts
        self.content = content
        self.signIn = signIn
        self.secondFactor = secondFactor
    }

    public var body: some View {
        Group {
            switch gate.route(for: auth.session, assurance: auth.assuranceLevel) {
            case .progress:
                ProgressView()
            case .signIn:
                signIn()
            case .content(let user):
                content(user)
            case .secondFactor(let user):
                secondFactor(user)
            case .sessionError(let error):
                sessionError(error)
            }
        }
        .environment(auth)
        .task { await auth.restoreSessionIfNeeded() }
    }

    private func sessionError(_ error: AuthError) -> some View {
        VStack(spacing: 12) {
            Text(texts.errorTitle).font(.headline)
            Text(error.recoverySuggestion ?? error.message).font(.footnote)
            ForEach(AuthGate.actions(for: error), id: \.self) { action in
                Button(texts.label(for: action)) {
                    if action.needsConfirmation {
                        confirmingSignInAgain = true
                    } else {
                        Task { await auth.restoreSession() }
                    }
                }
            }
        }
        .padding()
        .confirmationDialog(texts.confirmTitle, isPresented: $confirmingSignInAgain, titleVisibility: .visible) {
            Button(texts.confirmAction, role: .destructive) { Task { await auth.discardStoredSession() } }
            Button(texts.cancel, role: .cancel) {}
        } message: {
            Text(texts.confirmMessage)
        }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension AuthGuardView where SecondFactor == SignIn {
    /// Creates the view without a screen of its own for the second factor: the sign-in screen
    /// shows while a code is due (it reads ``AuthService/state`` to ask for it).
    public init(
        auth: AuthService,
        gate: AuthGate = .gate,
        texts: AuthGateTexts = AuthGateTexts(),
        @ViewBuilder content: @escaping (User?) -> Content,
        @ViewBuilder signIn: @escaping () -> SignIn
    ) {
        self.init(
            auth: auth,
            gate: gate,
            texts: texts,
            content: content,
            signIn: signIn,
            secondFactor: { _ in signIn() }
        )
    }
}
#endif
