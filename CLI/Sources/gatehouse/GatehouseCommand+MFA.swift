import ArgumentParser
import Foundation
import Gatehouse
import GatehouseCLI
import GatehouseQR

extension GatehouseCommand {
    struct MFA: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mfa",
            abstract: "Two-factor sign-in with an authenticator app: enroll, verify, list, remove.",
            subcommands: [Enroll.self, Verify.self, List.self, Remove.self]
        )
    }
}

extension GatehouseCommand.MFA {
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an authenticator app: shows a QR code to scan, then asks for its first code."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "A name for the app or device (unique per account).")
        var name: String?

        @Option(help: "The app's first code (asked for when omitted).")
        var code: String?

        @OptionGroup var reauthentication: ReauthenticationOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                let enrolment = try await context.reauthenticating(
                    .enrolFactor,
                    nonceFromStdin: reauthentication.nonceFromStdin,
                    waiting: "Enrolling…"
                ) { nonce in try await context.auth.mfa.enrollTOTP(friendlyName: name, nonce: nonce) }
                if !context.json {
                    let qr = try QRCode(text: enrolment.uri)
                    context.console.err("Scan this QR code with your authenticator app:\n")
                    context.console.err(qr.halfBlocks())
                    context.console.err("Or enter the secret: \(enrolment.secret)")
                    context.console.err("URI: \(enrolment.uri)\n")
                }
                let first = try context.value(code, prompt: "Code: ")
                _ = try await context.waiting("Verifying…") {
                    try await context.auth.mfa.challengeAndVerify(factorID: enrolment.factorID, code: first)
                }
                context.emit(
                    "Two-factor sign-in is on: factor \(enrolment.factorID).",
                    json: FactorOutput(id: enrolment.factorID, name: enrolment.friendlyName, verified: true)
                )
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enter the authenticator app's code to complete a sign-in."
        )

        @OptionGroup var options: GlobalOptions

        @Option(help: "The app's current code (asked for when omitted).")
        var code: String?

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                try await context.completeSecondFactor(code: code)
                context.emit("Signed in completely.", json: await context.status())
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the account's authenticator apps.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                _ = await context.status()
                let factors = context.auth.mfa.factors.map {
                    FactorOutput(id: $0.id, name: $0.friendlyName, verified: $0.isVerified)
                }
                let text =
                    factors.isEmpty
                    ? "No authenticator apps. Add one with `gatehouse mfa enroll`."
                    : factors.map { "\($0.id)  \($0.verified ? "verified  " : "unverified")  \($0.name)" }
                        .joined(separator: "\n")
                context.emit(text, json: factors)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an authenticator app (a verified one needs a two-factor sign-in first)."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The factor id (see `gatehouse mfa list`).")
        var id: String

        @OptionGroup var reauthentication: ReauthenticationOptions

        func run() async throws {
            try await perform {
                let context = try await options.context()
                _ = try context.requireUser()
                try await context.reauthenticating(
                    .unenrolFactor,
                    nonceFromStdin: reauthentication.nonceFromStdin,
                    waiting: "Removing…"
                ) { nonce in try await context.auth.mfa.unenroll(factorID: id, nonce: nonce) }
                context.emit("Removed factor \(id).", json: FactorOutput(id: id, name: "", verified: false))
            }
        }
    }

    /// A factor in `--json` output.
    struct FactorOutput: Encodable {
        var id: String
        var name: String
        var verified: Bool
    }
}
