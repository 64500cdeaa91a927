import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Upgrade: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the signed-in guest into a permanent account, keeping its id.",
            discussion: "A code goes to the address; the guest becomes permanent once it is entered."
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
                let outcome = try await context.waiting("Upgrading…") {
                    try await auth.upgradeGuest(email: email, password: password)
                }
                switch outcome {
                case .upgradedInPlace, .signedIntoExistingAccount:
                    break
                case .pendingVerification(let pending):
                    // The address is the guest's only once the code sent to it is entered.
                    _ = try await context.confirmEmailChange(.codeSentToNewAddress(newEmail: pending))
                case .emailBelongsToExistingAccount(let taken, _):
                    throw CLIError.usage(
                        "\(taken) belongs to another account.",
                        hint: "Sign in to it with `gatehouse login`, or choose another address."
                    )
                }
                let user = try context.requireUser()
                context.emit("Upgraded: \(user.email ?? email), same id \(user.id).", json: await context.status())
            }
        }
    }
}
