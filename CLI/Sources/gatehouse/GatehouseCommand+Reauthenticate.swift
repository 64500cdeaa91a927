import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Reauthenticate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "E-mail a code that proves a recent sign-in, for changes to how the account is entered.",
            discussion: """
                More than 10 minutes after signing in, the server asks for this code before a change to \
                the password, the address, a passkey, an authenticator app or a linked provider, before \
                signing out other sessions, and before deleting the account. Those commands ask for it \
                themselves; scripts send it on standard input with --nonce-stdin.
                """
        )

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let user = try context.requireUser()
                try await context.waiting("Sending a code…") { try await context.auth.reauthenticate() }
                struct Reply: Encodable {
                    var sent: Bool
                    var email: String?
                }
                let address = user.email ?? "your address"
                context.emit(
                    "A code was sent to \(address). Enter it when a command asks, or pipe it to --nonce-stdin.",
                    json: Reply(sent: true, email: user.email)
                )
            }
        }
    }
}
