import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Upgrade: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the signed-in guest into a permanent account, keeping its id."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The e-mail address (asked for when omitted).")
        var email: String?

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let guest = try context.requireUser()
                guard guest.isAnonymous else {
                    throw CLIError.usage("\(guest.email ?? guest.id) is not a guest; there is nothing to upgrade.")
                }
                let email = try context.value(email, prompt: "Email: ")
                let password = try context.secret(prompt: "Password: ")
                let auth = context.auth
                let result = try await context.waiting("Upgrading…") {
                    try await auth.signUp(email: email, password: password)
                }
                try await context.confirmIfNeeded(result, email: email)
                let user = try context.requireUser()
                context.emit("Upgraded: \(user.email ?? email), same id \(user.id).", json: await context.status())
            }
        }
    }
}
