import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show who is signed in, whether the server confirms it, and when the token expires."
        )

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            var exitStatus: CLIError.ExitStatus?
            try await perform {
                let context = try await options.context()
                let report = await context.waiting("Checking the session…") { await context.status() }
                context.emit(report.text(), json: report)
                exitStatus = report.exitStatus
            }
            // Scripts check sign-in with `gatehouse status`: 3 when nobody is signed in, 1 when
            // the stored session could not be read; the report is printed either way.
            if let exitStatus { throw ExitCode(exitStatus.rawValue) }
        }
    }

    struct Whoami: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the signed-in user's e-mail (or id for a guest)."
        )

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                let user = try context.requireUser()
                context.emit(user.email ?? user.id, json: await context.status())
            }
        }
    }
}
