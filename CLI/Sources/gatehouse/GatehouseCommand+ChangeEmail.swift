import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct ChangeEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-email",
            abstract: "Move the signed-in account to a new e-mail address, confirmed by code.",
            discussion: """
                A code goes to the new address and, when the current address is confirmed, one to \
                the current address too; both are asked for. The address changes only once every \
                code is entered, and the account's other sessions end.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The new e-mail address (asked for when omitted).")
        var email: String?

        @OptionGroup var reauthentication: ReauthenticationOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                let email = try context.value(email, prompt: "New email: ")
                let auth = context.auth
                let status = try await context.reauthenticating(
                    .changeEmail,
                    nonceFromStdin: reauthentication.nonceFromStdin,
                    waiting: "Requesting the change…"
                ) { nonce in try await auth.updateUser(email: email, nonce: nonce) }
                let user = try await context.confirmEmailChange(status)
                context.emit("E-mail changed to \(user.email ?? email) (\(user.id)).", json: await context.status())
            }
        }
    }
}
