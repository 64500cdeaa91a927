import ArgumentParser
import Foundation
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places you are signed in, or end one of them.",
            subcommands: [List.self, End.self],
            defaultSubcommand: List.self
        )

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List your sessions, newest first; * marks this one."
            )

            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await perform {
                    let context = try await options.context()
                    _ = try context.requireUser()
                    let sessions = try await context.waiting("Listing sessions…") { try await context.auth.sessions() }
                    let table = SessionTable(sessions)
                    context.emit(table.text(), json: table)
                }
            }
        }

        struct End: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "End one session at once; ending this one signs out here too."
            )

            @OptionGroup var options: GlobalOptions

            @Argument(help: "The session's ID, from `gatehouse sessions`.")
            var id: String

            @OptionGroup var reauthentication: ReauthenticationOptions

            func run() async throws {
                try await perform {
                    guard let sessionID = UUID(uuidString: id) else {
                        throw CLIError.usage(
                            "“\(id)” is not a session ID.",
                            hint: "Copy one from `gatehouse sessions`."
                        )
                    }
                    let context = try await options.context()
                    _ = try context.requireUser()
                    try await context.reauthenticating(
                        .endOtherSession,
                        nonceFromStdin: reauthentication.nonceFromStdin,
                        waiting: "Ending the session…"
                    ) { nonce in try await context.auth.endSession(id: sessionID, nonce: nonce) }
                    let signedOut = context.auth.currentUser == nil
                    struct Reply: Encodable {
                        var ended: String
                        var signed_out: Bool
                    }
                    context.emit(
                        signedOut
                            ? "Ended this session; signed out." : "Ended session \(sessionID.uuidString.lowercased()).",
                        json: Reply(ended: sessionID.uuidString.lowercased(), signed_out: signedOut)
                    )
                }
            }
        }
    }
}
