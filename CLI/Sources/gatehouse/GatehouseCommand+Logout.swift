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
            abstract: "Sign out. Always succeeds locally, even when the server cannot be reached."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "Which sessions end on the server: local (this one), others, or global (all).")
        var scope: ScopeOption = .local

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let wasSignedIn = context.auth.currentUser != nil
                await context.waiting("Signing out…") { await context.auth.signOut(scope: scope.scope) }
                if let error = context.auth.authSession.error { throw CLIError(error) }
                struct Reply: Encodable {
                    var signed_out: Bool
                }
                context.emit(wasSignedIn ? "Signed out." : "Not signed in.", json: Reply(signed_out: true))
            }
        }
    }
}
