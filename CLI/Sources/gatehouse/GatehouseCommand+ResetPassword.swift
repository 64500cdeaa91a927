import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "E-mail a password-reset code (sent only if the address has an account)."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The e-mail address (asked for when omitted).")
        var email: String?

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let email = try context.value(email, prompt: "Email: ")
                try await context.waiting("Sending…") { try await context.auth.resetPassword(email: email) }
                struct Reply: Encodable {
                    var sent: Bool
                }
                context.emit("If \(email) has an account, a reset code is on its way.", json: Reply(sent: true))
            }
        }
    }
}
