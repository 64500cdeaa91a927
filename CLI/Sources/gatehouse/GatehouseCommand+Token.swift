import ArgumentParser
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a valid access token, refreshed when needed, for scripts."
        )

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                let token = try await context.waiting("Refreshing…") { try await context.auth.accessToken() }
                struct Reply: Encodable {
                    var access_token: String
                }
                context.emit(token, json: Reply(access_token: token))
            }
        }
    }
}
