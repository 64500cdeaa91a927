import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign in with e-mail and password, an e-mailed code, or as a guest."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The e-mail address (asked for when omitted).")
        var email: String?

        @Flag(help: "E-mail a one-time code and sign in with it instead of a password.")
        var magicCode = false

        @Flag(help: "Sign in as a new guest, who can be upgraded later with `gatehouse upgrade`.")
        var guest = false

        func validate() throws {
            if guest && (magicCode || email != nil) {
                throw ValidationError("--guest takes no e-mail and cannot be combined with --magic-code.")
            }
        }

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let auth = context.auth
                let user: User
                if guest {
                    user = try await context.waiting("Signing in as a guest…") { try await auth.signInAnonymously() }
                } else {
                    let email = try context.value(email, prompt: "Email: ")
                    if magicCode {
                        try await context.waiting("Sending a code…") { try await auth.sendMagicCode(to: email) }
                        context.console.err("A code was sent to \(email).")
                        let code = try context.value(nil, prompt: "Code: ")
                        user = try await context.waiting("Verifying…") {
                            try await auth.verifyMagicCode(email: email, code: code)
                        }
                    } else {
                        let password = try context.secret(prompt: "Password: ")
                        user = try await context.waiting("Signing in…") {
                            try await auth.signIn(email: email, password: password)
                        }
                    }
                }
                context.emit("Signed in as \(user.email ?? "a guest") (\(user.id)).", json: await context.status())
            }
        }
    }
}
