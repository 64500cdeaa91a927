public import Foundation

/// A Firebase project's password-hash parameters, as its console shows them ("Password Hash
/// Parameters"): secrets, read from a file or the environment and never logged (the
/// description hides them).
public struct FirebaseHashParameters: Sendable, Equatable, Codable, CustomStringConvertible {
    /// `base64_signer_key`, decoded.
    public var signerKey: Data
    /// `base64_salt_separator`, decoded.
    public var saltSeparator: Data
    /// `rounds`: scrypt's block size `r`.
    public var rounds: Int
    /// `mem_cost`: scrypt's cost `N` is `2^memoryCost`.
    public var memoryCost: Int

    public init(signerKey: Data, saltSeparator: Data, rounds: Int, memoryCost: Int) throws {
        guard !signerKey.isEmpty else { throw Problem("the signer key is empty") }
        guard (1...8).contains(rounds) else { throw Problem("rounds must be between 1 and 8 (Firebase uses 8)") }
        guard (1...14).contains(memoryCost) else {
            throw Problem("the memory cost must be between 1 and 14 (Firebase uses 14)")
        }
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }

    /// Reads the console's text (`hash_config { algorithm: SCRYPT, base64_signer_key: …, … }`)
    /// or the same keys as `KEY=value` lines.
    public init(consoleText text: String) throws {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "," }) {
            let pair = line.split(maxSplits: 1, whereSeparator: { $0 == ":" || $0 == "=" })
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = pair[1].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\"'")))
        }
        if let algorithm = values["algorithm"], algorithm.uppercased() != "SCRYPT" {
            throw Problem("the algorithm is \(algorithm); only Firebase's SCRYPT is supported")
        }
        try self.init(
            signerKey: try Self.base64(values["base64_signer_key"], "base64_signer_key"),
            saltSeparator: try Self.base64(values["base64_salt_separator"] ?? "", "base64_salt_separator"),
            rounds: try Self.integer(values["rounds"], "rounds"),
            memoryCost: try Self.integer(values["mem_cost"], "mem_cost")
        )
    }

    /// Reads `GATEHOUSE_FIREBASE_SIGNER_KEY`, `GATEHOUSE_FIREBASE_SALT_SEPARATOR` (both base64),
    /// `GATEHOUSE_FIREBASE_ROUNDS` and `GATEHOUSE_FIREBASE_MEM_COST`; `nil` when no signer key is set.
    public init?(environment: [String: String]) throws {
        guard let key = environment["GATEHOUSE_FIREBASE_SIGNER_KEY"] else { return nil }
        try self.init(
            signerKey: try Self.base64(key, "GATEHOUSE_FIREBASE_SIGNER_KEY"),
            saltSeparator: try Self.base64(
                environment["GATEHOUSE_FIREBASE_SALT_SEPARATOR"] ?? "",
                "GATEHOUSE_FIREBASE_SALT_SEPARATOR"
            ),
            rounds: try Self.integer(environment["GATEHOUSE_FIREBASE_ROUNDS"] ?? "8", "GATEHOUSE_FIREBASE_ROUNDS"),
            memoryCost: try Self.integer(
                environment["GATEHOUSE_FIREBASE_MEM_COST"] ?? "14",
                "GATEHOUSE_FIREBASE_MEM_COST"
            )
        )
    }

    public var description: String { "FirebaseHashParameters(rounds: \(rounds), mem_cost: \(memoryCost), keys hidden)" }

    private static func base64(_ text: String?, _ name: String) throws -> Data {
        guard let text, let data = Base64Text.decode(text) else { throw Problem("\(name) is missing or not base64") }
        return data
    }

    private static func integer(_ text: String?, _ name: String) throws -> Int {
        guard let text, let value = Int(text) else { throw Problem("\(name) is missing or not a number") }
        return value
    }

    /// Why the parameters cannot be read (never quoting a value).
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
