import ArgumentParser
import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseStorage

extension GatehouseServerCommand {
    /// `gatehouse-server import --from firebase|supabase|auth0 FILE`, and `import forget-firebase-key`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import users from a Firebase, Supabase or Auth0 export, passwords intact.",
            discussion: """
                Writes into the configured database (GATEHOUSE_DATABASE_URL) in batches; a second run \
                of the same export changes nothing. Firebase's hash parameters are secrets: give them \
                as the console's text in a file (--hash-config) or in GATEHOUSE_FIREBASE_SIGNER_KEY, \
                GATEHOUSE_FIREBASE_SALT_SEPARATOR, GATEHOUSE_FIREBASE_ROUNDS and GATEHOUSE_FIREBASE_MEM_COST.
                """,
            subcommands: [Users.self, Find.self, ForgetFirebaseKey.self],
            defaultSubcommand: Users.self
        )

        struct Users: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "users",
                abstract: "Import an export (the default)."
            )

            @OptionGroup var options: ServerOptions

            @Option(help: "The service the export comes from: firebase, supabase or auth0.")
            var from: String

            @Argument(help: "The export: Firebase's users.json, Supabase's auth.users (JSON or CSV), Auth0's NDJSON.")
            var file: String

            @Option(help: "Supabase: auth.identities in a file of its own (JSON or CSV).")
            var identities: String?

            @Option(help: "Supabase: auth.mfa_factors (JSON or CSV); its verified TOTP factors are imported.")
            var factors: String?

            @Flag(
                inversion: .prefixedNo,
                help: "Show progress on standard error (default: only when it is a terminal)."
            )
            var progress: Bool?

            @Option(help: "Firebase: a file holding the console's Password Hash Parameters (hash_config { … }).")
            var hashConfig: String?

            @Flag(help: "Report what would be imported and refused; write nothing.")
            var dryRun = false

            @Option(help: "Users per transaction (default 1000).")
            var batchSize = 1000

            @Flag(help: "Treat addresses the source did not mark verified as confirmed.")
            var trustUnverifiedAddresses = false

            func run() async throws {
                guard let source = ImportSource(rawValue: from) else {
                    throw ValidationError("--from must be firebase, supabase or auth0.")
                }
                var settings = ImportOptions()
                settings.dryRun = dryRun
                settings.batchSize = batchSize
                settings.trustsUnverifiedAddresses = trustUnverifiedAddresses
                let firebase: FirebaseHashParameters?
                do {
                    if let hashConfig {
                        firebase = try FirebaseHashParameters(
                            consoleText: String(contentsOfFile: hashConfig, encoding: .utf8)
                        )
                    } else {
                        firebase = try FirebaseHashParameters(environment: ProcessInfo.processInfo.environment)
                    }
                } catch let problem as FirebaseHashParameters.Problem {
                    throw ValidationError("Firebase hash parameters: \(problem.description).")
                }
                let showsProgress = ImportProgress.isShown(
                    requested: progress,
                    standardErrorIsTerminal: isatty(STDERR_FILENO) != 0
                )
                try await options.withDatabase { database in
                    let report: ImportReport
                    do {
                        report = try await UserImport.run(
                            source,
                            file: URL(fileURLWithPath: file),
                            identities: identities.map { URL(fileURLWithPath: $0) },
                            factors: factors.map { URL(fileURLWithPath: $0) },
                            firebase: firebase,
                            database: database,
                            options: settings
                        ) { done, total in
                            guard showsProgress else { return }
                            FileHandle.standardError.write(Data(ImportProgress.line(done: done, total: total).utf8))
                        }
                    } catch let error as ImportFileError {
                        throw ValidationError("\(error.description).")
                    }
                    if showsProgress { FileHandle.standardError.write(Data(ImportProgress.end.utf8)) }
                    for refusal in report.refusals { print("refused \(refusal)") }
                    for skipped in report.skippedFactors { print("skipped \(skipped)") }
                    let verb = dryRun ? "would import" : "imported"
                    print(
                        "\(verb) \(report.imported) (\(report.withPassword) with a password, \(report.identities) "
                            + "identities, \(report.factors) TOTP factors), already present \(report.alreadyPresent), "
                            + "refused \(report.refusals.count)"
                    )
                }
            }
        }

        struct Find: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the id and address of the user imported under an old id (firebase_uid, auth0_user_id)."
            )

            @OptionGroup var options: ServerOptions

            @Option(help: "The service the user came from: firebase, supabase or auth0.")
            var from: String

            @Argument(help: "The user's id in that service.")
            var sourceID: String

            func run() async throws {
                guard let source = ImportSource(rawValue: from) else {
                    throw ValidationError("--from must be firebase, supabase or auth0.")
                }
                try await options.withDatabase { database in
                    guard let user = try await UserImport.user(from: source, sourceID: sourceID, database: database)
                    else {
                        throw ValidationError("No user was imported from \(source.rawValue) as \(sourceID).")
                    }
                    print("\(user.id.uuidString.lowercased())  \(user.email ?? "-")")
                }
            }
        }

        struct ForgetFirebaseKey: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "forget-firebase-key",
                abstract: "Delete the kept Firebase hash parameters (users not yet rehashed must reset their password)."
            )

            @OptionGroup var options: ServerOptions

            func run() async throws {
                try await options.withDatabase { database in
                    let forgotten = try await UserImport.forgetFirebaseKey(database: database)
                    print(forgotten ? "Firebase hash parameters deleted." : "No Firebase hash parameters were kept.")
                }
            }
        }
    }
}
