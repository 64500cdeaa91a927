import ArgumentParser
import Foundation
import Gatehouse
import GatehouseCLI

extension GatehouseCommand {
    /// `gatehouse passkeys list|rename|remove`: the signed-in account's passkeys. Creating one
    /// needs an authenticator (an app on a phone or a browser), which a terminal is not.
    struct Passkeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passkeys",
            abstract: "List, rename or remove the signed-in account's passkeys.",
            subcommands: [List.self, Rename.self, Remove.self],
            defaultSubcommand: List.self
        )

        /// The JSON form of one passkey.
        struct Item: Encodable {
            var id: String
            var name: String?
            var createdAt: String
            var lastUsedAt: String?

            init(_ passkey: Passkey) {
                id = passkey.id.uuidString.lowercased()
                name = passkey.name
                createdAt = WireCoding.formatTimestamp(passkey.createdAt)
                lastUsedAt = passkey.lastUsedAt.map(WireCoding.formatTimestamp)
            }

            enum CodingKeys: String, CodingKey {
                case id, name
                case createdAt = "created_at"
                case lastUsedAt = "last_used_at"
            }

            var line: String {
                "\(id)  \(name ?? "(unnamed)")  created \(createdAt)  last used \(lastUsedAt ?? "never")"
            }
        }

        static func passkeyID(_ text: String) throws -> UUID {
            guard let id = UUID(uuidString: text) else {
                throw CLIError.usage("“\(text)” is not a passkey id; `gatehouse passkeys list` shows them.")
            }
            return id
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the account's passkeys.")

            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await perform {
                    let context = try await options.context()
                    _ = try context.requireUser()
                    let passkeys = try await context.waiting("Loading…") { try await context.auth.passkeys.list() }
                    let items = passkeys.map(Item.init)
                    let text = items.isEmpty ? "No passkeys." : items.map(\.line).joined(separator: "\n")
                    context.emit(text, json: items)
                }
            }
        }

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Rename one of the account's passkeys.")

            @OptionGroup var options: GlobalOptions

            @Argument(help: "The passkey's id (from `gatehouse passkeys list`).")
            var id: String

            @Argument(help: "The new name (1 to 120 characters).")
            var name: String

            @OptionGroup var reauthentication: ReauthenticationOptions

            func run() async throws {
                try await perform {
                    let context = try await options.context()
                    _ = try context.requireUser()
                    let id = try Passkeys.passkeyID(id)
                    let renamed = try await context.reauthenticating(
                        .renamePasskey,
                        nonceFromStdin: reauthentication.nonceFromStdin,
                        waiting: "Renaming…"
                    ) { nonce in try await context.auth.passkeys.rename(id, to: name, nonce: nonce) }
                    context.emit("Renamed to \(renamed.name ?? name).", json: Item(renamed))
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove one of the account's passkeys (never its last way to sign in)."
            )

            @OptionGroup var options: GlobalOptions

            @Argument(help: "The passkey's id (from `gatehouse passkeys list`).")
            var id: String

            @OptionGroup var reauthentication: ReauthenticationOptions

            func run() async throws {
                try await perform {
                    let context = try await options.context()
                    _ = try context.requireUser()
                    let id = try Passkeys.passkeyID(id)
                    try await context.reauthenticating(
                        .removePasskey,
                        nonceFromStdin: reauthentication.nonceFromStdin,
                        waiting: "Removing…"
                    ) { nonce in try await context.auth.passkeys.remove(id, nonce: nonce) }
                    struct Reply: Encodable {
                        var removed: String
                    }
                    context.emit("Removed.", json: Reply(removed: id.uuidString.lowercased()))
                }
            }
        }
    }
}
