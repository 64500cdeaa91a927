import ArgumentParser
import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// `gatehouse-server`: run the server (the default), or print an admin token.
@main
struct GatehouseServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse-server",
        abstract: "A GoTrue-compatible auth server. Configuration comes from GATEHOUSE_* variables.",
        subcommands: [
            Serve.self, AdminToken.self, Keys.self, Operator.self, Import.self, AppleAppSiteAssociationFile.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// Flags that override the environment.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on (GATEHOUSE_HOST, default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (GATEHOUSE_PORT, default 9999).")
    var port: Int?

    @Option(help: "SQLite path, sqlite:// or postgres:// URL (GATEHOUSE_DATABASE_URL, default ./gatehouse.sqlite).")
    var database: String?

    func configuration() throws -> ServerConfiguration {
        var environment = ProcessInfo.processInfo.environment
        if let host { environment["GATEHOUSE_HOST"] = host }
        if let port { environment["GATEHOUSE_PORT"] = String(port) }
        if let database { environment["GATEHOUSE_DATABASE_URL"] = database }
        do {
            return try ServerConfiguration(environment: environment)
        } catch let error as ConfigurationError {
            throw ValidationError("Invalid configuration: \(error.description)")
        }
    }
}

extension GatehouseServerCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the server (the default).")

        @OptionGroup var options: ServerOptions

        func run() async throws {
            ProcessTimeZone.keepUTCUnlessConfigured()
            let configuration = try options.configuration()
            let level =
                ProcessInfo.processInfo.environment["GATEHOUSE_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) }
                ?? .info
            switch configuration.logFormat {
            case .text:
                LoggingSystem.bootstrap { label in
                    var handler = TextLogHandler(label: label)
                    handler.logLevel = level
                    return handler
                }
            case .json:
                LoggingSystem.bootstrap { label in
                    var handler = JSONLogHandler(label: label)
                    handler.logLevel = level
                    return handler
                }
            }
            // A file size limit (`ulimit -f`) must fail the write, which SQLite reports, rather
            // than kill the server with SIGXFSZ.
            signal(SIGXFSZ, SIG_IGN)
            try await runServer(configuration: configuration, logger: Logger(label: "gatehouse"))
        }
    }

    struct AdminToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin-token",
            abstract: "Print a service_role JWT for the admin API, signed with this server's key, or revoke one.",
            discussion: "The token's jti is printed to standard error; pass it to --revoke to end the token."
        )

        @OptionGroup var options: ServerOptions

        @Option(help: "Lifetime of the new token: 90d, 12h, 30m, 45s or seconds (default 90d).")
        var expiresIn: String = "90d"

        @Option(help: "Revoke the admin token with this jti instead of printing a new one.")
        var revoke: String?

        func run() async throws {
            let configuration = try options.configuration()
            if let revoke {
                try await options.withDatabase { try await ServiceRoleToken.revoke(jti: revoke, database: $0) }
                return
            }
            guard let lifetime = ServiceRoleToken.lifetime(from: expiresIn) else {
                throw ValidationError("--expires-in must look like 90d, 12h, 30m, 45s or a number of seconds.")
            }
            let jti = UUID.random().uuidString
            try await options.withDatabase { database in
                print(
                    try await ServiceRoleToken.issue(
                        configuration: configuration,
                        database: database,
                        lifetime: lifetime,
                        jti: jti
                    )
                )
            }
            FileHandle.standardError.write(Data("jti: \(jti)\n".utf8))
        }
    }

    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, rotate or retire the ES256 signing keys (takes effect at the next start).",
            subcommands: [List.self, Rotate.self, Retire.self],
            defaultSubcommand: List.self
        )

        struct List: AsyncParsableCommand {
            @OptionGroup var options: ServerOptions

            func run() async throws {
                try await options.withDatabase { database in
                    let storage = database.storage
                    for key in try await SigningKeyAdmin.list(storage: storage) {
                        print("\(key.kid)  \(key.algorithm)  created \(key.createdAt)")
                    }
                }
            }
        }

        struct Rotate: AsyncParsableCommand {
            @OptionGroup var options: ServerOptions

            func run() async throws {
                try await options.withDatabase { database in
                    print(try await SigningKeyAdmin.rotate(database: database))
                }
            }
        }

        struct Retire: AsyncParsableCommand {
            @OptionGroup var options: ServerOptions
            @Argument(help: "The kid of the key to retire.") var kid: String

            func run() async throws {
                try await options.withDatabase { database in
                    let storage = database.storage
                    do {
                        try await SigningKeyAdmin.retire(kid: kid, storage: storage)
                    } catch let error as SigningKeyAdmin.RetireError {
                        throw ValidationError("\(error.description).")
                    }
                }
            }
        }
    }
}

extension ServerOptions {
    /// Opens and migrates the configured database (SQLite or PostgreSQL, see `ServerDatabase`)
    /// without starting the server, logging only errors, runs `body` on it and closes it (keys
    /// are sealed under its server secret, so `keys rotate` and `admin-token` need that secret).
    func withDatabase(_ body: (ServerDatabase) async throws -> Void) async throws {
        var logger = Logger(label: "gatehouse")
        logger.logLevel = .error
        let database = try await ServerDatabase.open(try configuration(), logger: logger)
        do {
            try await body(database)
        } catch {
            try? await database.close()
            throw error
        }
        try await database.close()
    }
}
