import ArgumentParser
import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseStorage

extension GatehouseServerCommand {
    /// `gatehouse-server operator grant|revoke|list`: who may sign in to the console.
    struct Operator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "operator",
            abstract: "Grant, revoke or list the console's operator role (recorded in the audit log).",
            subcommands: [Grant.self, Revoke.self, List.self],
            defaultSubcommand: List.self
        )

        struct Grant: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make the user with this address an operator (they sign in with a password and TOTP)."
            )
            @OptionGroup var options: ServerOptions
            @Argument(help: "The user's e-mail address.") var email: String

            func run() async throws {
                try await options.withDatabase { database in
                    try await Operator.refusingBadInput {
                        try await OperatorRoles.grant(email: email, storage: database.storage)
                    }
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Take the role back; the user's console sessions end at once."
            )
            @OptionGroup var options: ServerOptions
            @Argument(help: "The user's e-mail address.") var email: String

            func run() async throws {
                try await options.withDatabase { database in
                    try await Operator.refusingBadInput {
                        try await OperatorRoles.revoke(email: email, storage: database.storage)
                    }
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the operators.")
            @OptionGroup var options: ServerOptions

            func run() async throws {
                try await options.withDatabase { database in
                    for role in try await OperatorRoles.list(storage: database.storage) {
                        print("\(role.email ?? role.userID.uuidString)  granted \(role.grantedAt)")
                    }
                }
            }
        }

        /// Runs `body`, turning a refused grant or revoke into the command's usage error.
        static func refusingBadInput(_ body: () async throws -> Void) async throws {
            do {
                try await body()
            } catch let error as OperatorRoles.RoleError {
                throw ValidationError("\(error.description).")
            }
        }
    }
}
