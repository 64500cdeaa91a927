extension AuthService {
    /// Signs out. Never fails.
    ///
    /// The stored session is deleted first, then the signed-out state is published, then the
    /// backend is told (best-effort: offline or an error changes nothing locally). Only the
    /// auth session is touched; the app's own data stays.
    ///
    /// - Parameter scope: Which server sessions end: `.local` (this device, the default),
    ///   `.others` (every other device) or `.global` (all).
    public func signOut(scope: LogoutScope = .local) async {
        operationStatus = .pending
        operationError = nil
        let ending = tokens
        if scope == .others, ending != nil {
            operationStatus = .success
        } else if let failure = await endSessionLocally(event: .signedOut) {
            operationStatus = .error
            operationError = failure
        } else {
            operationStatus = .success
        }
        guard let ending else { return }
        do {
            try await backend.signOut(ending, scope: scope)
        } catch {
            configuration.log(
                .info,
                "Server sign-out failed; signed out locally",
                [
                    "code": AuthError.wrapping(error).code.rawValue
                ]
            )
        }
    }
}

extension AuthService {
    /// Removes a stored session that could not be restored, and shows sign-in: the "Sign in
    /// again" of a session-error screen (``AuthGate/SessionErrorAction/signInAgain``), for
    /// errors retrying cannot fix. Ask the person first; their account and the app's data are
    /// not touched. Never fails: a store that cannot be cleared is reported in ``operationError``,
    /// and the next sign-in replaces what it holds.
    public func discardStoredSession() async {
        operationStatus = .pending
        operationError = nil
        let failure = await endSessionLocally(event: .signedOut)
        storeHasBeenRead = true
        operationStatus = failure == nil ? .success : .error
        operationError = failure
    }
}
