import ArgumentParser
import Gatehouse
import GatehouseCLI

/// The `--scope` values, mapped to the SDK's ``LogoutScope``.
enum ScopeOption: String, ExpressibleByArgument, CaseIterable {
    case local, others, global

    var scope: LogoutScope { LogoutScope(rawValue: rawValue) ?? .local }
}

extension GatehouseCommand {
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign out. Always succeeds locally, even when the server cannot be reached.",
            discussion: """
                --scope others and global end the account's other sessions too: more than 10 minutes \
                after signing in the server wants a reauthentication code, which is e-mailed and asked \
                for (or read with --nonce-stdin). With global, this session ends here whatever the \
                server answers about the others; the command then fails if they could not be ended.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "Which sessions end on the server: local (this one), others, or global (all).")
        var scope: ScopeOption = .local

        @OptionGroup var reauthentication: ReauthenticationOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let auth = context.auth
                let wasSignedIn = auth.currentUser != nil
                var othersRefused: (any Error)?
                if wasSignedIn, scope != .local {
                    do {
                        try await context.reauthenticating(
                            .endOtherSessions,
                            nonceFromStdin: reauthentication.nonceFromStdin,
                            waiting: "Signing out the other sessions…"
                        ) { nonce in try await auth.endOtherSessions(nonce: nonce) }
                    } catch {
                        guard scope == .global else { throw error }
                        othersRefused = error
                    }
                }
                if scope != .others {
                    await context.waiting("Signing out…") { await auth.signOut() }
                    if let error = auth.authSession.error { throw CLIError(error) }
                }
                if let othersRefused {
                    let reason = CLIError(othersRefused)
                    throw CLIError(
                        message: "Signed out here, but the other sessions are still signed in: \(reason.message)",
                        hint: reason.hint,
                        code: reason.code,
                        status: .failure
                    )
                }
                struct Reply: Encodable {
                    var signed_out: Bool
                    var scope: String
                }
                let text =
                    !wasSignedIn
                    ? "Not signed in."
                    : scope == .others ? "Signed out the other sessions; this one stays signed in." : "Signed out."
                context.emit(text, json: Reply(signed_out: scope != .others, scope: scope.rawValue))
            }
        }
    }
}
