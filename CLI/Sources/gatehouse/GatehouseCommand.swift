import ArgumentParser
import Foundation
import Gatehouse
import GatehouseCLI

/// `gatehouse`: sign in to a Gatehouse (or any GoTrue-compatible) server from the terminal.
@main
struct GatehouseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Sign in to a Gatehouse server from the terminal.",
        discussion: """
            The session is kept in a 0600 file under $XDG_CONFIG_HOME/gatehouse (or ~/.config/gatehouse),
            one per server, and restored on every launch.
            Exit codes: 0 success, 1 failure, 2 usage error, 3 not signed in.
            """,
        version: "0.1.0",
        subcommands: [
            Login.self, Signup.self, Status.self, Whoami.self, Token.self, Logout.self, Upgrade.self,
            DeleteAccount.self, ResetPassword.self, ChangeEmail.self, MFA.self, Sessions.self, Passkeys.self,
            Reauthenticate.self,
        ]
    )

    /// Runs the command and maps every error to the documented exit codes.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            report(error)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? CLIError.ExitStatus.usage.rawValue : code.rawValue)
        }
    }

    static func report(_ error: CLIError) -> Never {
        let json = CommandLine.arguments.contains("--json")
        if json {
            print(JSONOutput.render(error))
        } else {
            var text = "error: \(error.message)"
            if let hint = error.hint { text += "\n\(hint)" }
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
        Foundation.exit(error.status.rawValue)
    }
}

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The server URL (default: $GATEHOUSE_URL or http://127.0.0.1:9999).")
    var server: String?

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @Flag(
        name: .customLong("allow-insecure-http"),
        help: """
            Allow an http:// server URL whose host is not this machine (a server on a trusted network). \
            Off by default: such a URL is refused (insecure_connection), since passwords and tokens \
            would cross the network unencrypted.
            """
    )
    var allowInsecureHTTP = false

    /// Restores the session for the chosen server.
    @MainActor
    func context() async throws -> CLIContext {
        await CLIContext(location: try ServerLocation(flag: server), json: json, allowsInsecureHTTP: allowInsecureHTTP)
    }
}

/// `--nonce-stdin`, for the commands that change how the account is entered.
struct ReauthenticationOptions: ParsableArguments {
    @Flag(
        name: .customLong("nonce-stdin"),
        help: """
            Read a reauthentication code (from `gatehouse reauthenticate`) from standard input and send it \
            with the change. Without it, the command asks for an e-mailed code when the server wants one.
            """
    )
    var nonceFromStdin = false
}

/// Runs a command body on the main actor, turning SDK errors into CLI errors.
func perform(_ body: @MainActor () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw CLIError(error)
    }
}
