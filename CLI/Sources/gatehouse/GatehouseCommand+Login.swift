import ArgumentParser
import Foundation
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Sign in with e-mail and password, an e-mailed code, a provider's page in the browser \
                (--provider github), an Apple or Google ID token, or as a guest.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The e-mail address (asked for when omitted).")
        var email: String?

        @Flag(help: "E-mail a one-time code and sign in with it instead of a password.")
        var magicCode = false

        @Flag(help: "Sign in as a new guest, who can be upgraded later with `gatehouse upgrade`.")
        var guest = false

        @Option(
            name: .customLong("id-token"),
            help: "A file holding an Apple or Google ID token (for scripts; apps get it from the provider's SDK)."
        )
        var idTokenFile: String?

        @Option(
            help: """
                Sign in through this provider's page in the browser (a name the server lists under \
                `external` in /settings: github, google, keycloak…); with --id-token, the token's issuer: \
                apple or google.
                """
        )
        var provider: String?

        @Option(name: .customLong("scope"), help: "A scope to ask the provider for besides its own (repeatable).")
        var scopes: [String] = []

        @Flag(help: "Print the sign-in address instead of opening a browser (also without a display).")
        var noBrowser = false

        @Option(help: "Seconds to wait for the browser's sign-in.")
        var timeout = 300

        @Option(help: "The raw nonce whose SHA-256 the ID token carries.")
        var nonce: String?

        @Option(
            help: "The authenticator app's code, when the account uses two-factor sign-in (asked for when omitted)."
        )
        var code: String?

        func validate() throws {
            if guest && (magicCode || email != nil || idTokenFile != nil) {
                throw ValidationError("--guest takes no e-mail or ID token and cannot be combined with --magic-code.")
            }
            if idTokenFile != nil {
                guard provider.flatMap(ProviderOption.init(rawValue:)) != nil, nonce != nil else {
                    throw ValidationError("--id-token needs --provider apple|google and the raw --nonce.")
                }
                guard email == nil, !magicCode else {
                    throw ValidationError("--id-token cannot be combined with --email or --magic-code.")
                }
            } else if nonce != nil {
                throw ValidationError("--nonce goes with --id-token FILE.")
            } else if provider != nil, guest || magicCode || email != nil {
                throw ValidationError("--provider signs in through the browser: it takes no --email, --magic-code or --guest.")
            }
            if provider == nil || idTokenFile != nil, noBrowser || !scopes.isEmpty {
                throw ValidationError("--no-browser and --scope go with --provider NAME (a browser sign-in).")
            }
            guard (1...3600).contains(timeout) else { throw ValidationError("--timeout is 1 to 3600 seconds.") }
        }

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let auth = context.auth
                let user: User
                if guest {
                    user = try await context.waiting("Signing in as a guest…") { try await auth.signInAnonymously() }
                } else if let idTokenFile, let provider = provider.flatMap(ProviderOption.init(rawValue:)) {
                    let credential = IDTokenCredential(
                        provider: provider.provider,
                        idToken: try Self.readToken(at: idTokenFile),
                        nonce: nonce
                    )
                    user = try await context.waiting("Signing in with \(provider.rawValue)…") {
                        try await auth.signIn(with: credential)
                    }
                } else if let provider {
                    guard let signedIn = try await context.signInThroughBrowser(
                        provider: provider,
                        scopes: scopes,
                        opening: LoopbackBrowser.opening(noBrowser: noBrowser, environment: ProcessInfo.processInfo.environment),
                        timeout: .seconds(timeout)
                    ) else {
                        context.console.err("The sign-in was cancelled in the browser.")
                        throw CLIError(message: "Not signed in: the sign-in was cancelled.", code: ErrorCode.cancelled.rawValue, status: .failure)
                    }
                    user = signedIn
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
                try await context.completeSecondFactor(code: code)
                context.emit("Signed in as \(user.email ?? "a guest") (\(user.id)).", json: await context.status())
            }
        }

        /// The token in `path`, without surrounding whitespace.
        static func readToken(at path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("Cannot read the ID token file \(path).")
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
                throw ValidationError("\(path) does not hold a JWT (three dot-separated parts).")
            }
            return token
        }
    }
}

/// `--provider` values that go with `--id-token`.
enum ProviderOption: String, ExpressibleByArgument, CaseIterable {
    case apple
    case google

    var provider: IDTokenCredential.Provider {
        switch self {
        case .apple: .apple
        case .google: .google
        }
    }
}
