import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Signup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; confirm it with the code sent by e-mail."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The e-mail address (asked for when omitted).")
        var email: String?

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let auth = context.auth
                if auth.currentUser?.isAnonymous == true {
                    throw CLIError.usage(
                        "A guest is signed in.",
                        hint: "Run `gatehouse upgrade` to keep the guest's id, or `gatehouse logout` first."
                    )
                }
                let email = try context.value(email, prompt: "Email: ")
                let password = try context.secret(prompt: "Password: ")
                let result = try await context.waiting("Creating the account…") {
                    try await auth.signUp(email: email, password: password)
                }
                try await context.confirmIfNeeded(result, email: email)
                let user = try context.requireUser()
                context.emit(
                    "Signed up and signed in as \(user.email ?? email) (\(user.id)).",
                    json: await context.status()
                )
            }
        }
    }
}
