import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct DeleteAccount: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-account",
            abstract: "Delete the signed-in account on the server, then sign out."
        )

        @OptionGroup var options: GlobalOptions

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @OptionGroup var reauthentication: ReauthenticationOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let user = try context.requireUser()
                if !yes {
                    let answer = context.console.prompt(
                        "Delete \(user.email ?? user.id) for good? Type DELETE to confirm: "
                    )
                    guard answer == "DELETE" else { throw CLIError.usage("Not deleted.") }
                }
                try await context.reauthenticating(
                    .deleteAccount,
                    nonceFromStdin: reauthentication.nonceFromStdin,
                    waiting: "Deleting…"
                ) { nonce in try await context.auth.deleteAccount(nonce: nonce) }
                struct Reply: Encodable {
                    var deleted: String
                }
                context.emit("Deleted \(user.email ?? user.id).", json: Reply(deleted: user.id))
            }
        }
    }
}
