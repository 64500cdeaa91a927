import Crypto
import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// What the server needs to act as the app's developer at Apple (issue 21): the team id, a
/// Sign in with Apple key (`.p8`) and its key id. With them, the server exchanges the
/// `authorization_code` an app sends beside an Apple ID token for Apple's refresh token, keeps
/// it sealed, and revokes it when the account is deleted (App Store Review Guideline
/// 5.1.1(v)). Unset: the code is accepted and ignored, as before.
public struct AppleAccountSettings: Sendable, Equatable, CustomStringConvertible {
    /// The developer team id (`iss` of the client secret), ten letters and digits.
    public var teamID: String
    /// The key's id (`kid` of the client secret), ten letters and digits.
    public var keyID: String
    /// The key's PEM text (the `.p8` file's contents): a P-256 private key.
    public var privateKeyPEM: String

    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }

    /// The settings without the private key.
    public var description: String {
        "AppleAccountSettings(teamID: \(teamID), keyID: \(keyID), privateKeyPEM: <redacted>)"
    }
}

extension EnvironmentReader {
    /// `GATEHOUSE_APPLE_TEAM_ID`, `GATEHOUSE_APPLE_KEY_ID` and `GATEHOUSE_APPLE_PRIVATE_KEY`
    /// (the `.p8` contents, `\n` escapes allowed, or a file path): all three or none, and only
    /// with `GATEHOUSE_APPLE_CLIENT_IDS`.
    func appleAccount(clientIDs: [String]) throws -> AppleAccountSettings? {
        let names = ["GATEHOUSE_APPLE_TEAM_ID", "GATEHOUSE_APPLE_KEY_ID", "GATEHOUSE_APPLE_PRIVATE_KEY"]
        let values = names.map { string($0) }
        let missing = zip(names, values).filter { $0.1 == nil }.map(\.0)
        if missing.count == names.count { return nil }
        guard missing.isEmpty, let team = values[0], let kid = values[1], let key = values[2] else {
            throw ConfigurationError(
                variable: missing.joined(separator: ", "),
                problem: "must be set too: Apple's code exchange and token revocation need "
                    + names.joined(separator: ", ")
            )
        }
        guard !clientIDs.isEmpty else {
            throw ConfigurationError(
                variable: "GATEHOUSE_APPLE_CLIENT_IDS",
                problem: "must be set with GATEHOUSE_APPLE_TEAM_ID (the app's bundle id or Services id)"
            )
        }
        for (name, value) in [(names[0], team), (names[1], kid)] where !Self.isAppleIdentifier(value) {
            throw ConfigurationError(variable: name, problem: "must be ten letters and digits, not “\(value)”")
        }
        let pem = try Self.privateKeyText(key)
        guard (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil else {
            throw ConfigurationError(
                variable: names[2],
                problem: "is not a P-256 private key in PEM (the .p8 file from Apple's developer portal, or its path)"
            )
        }
        return AppleAccountSettings(teamID: team, keyID: kid, privateKeyPEM: pem)
    }

    /// `GATEHOUSE_APPLE_BASE_URL`: where Apple's `/auth/token`, `/auth/revoke` and `/auth/keys`
    /// are (HTTPS, or HTTP on a loopback host for tests).
    func appleBaseURL(defaults: URL) throws -> URL {
        try secureURL("GATEHOUSE_APPLE_BASE_URL") ?? defaults
    }

    /// The key's PEM text: the value itself when it holds a PEM block (with real or `\n`
    /// line breaks), else the contents of the file it names.
    private static func privateKeyText(_ value: String) throws -> String {
        if value.contains("-----BEGIN") { return value.replacingOccurrences(of: "\\n", with: "\n") }
        guard let data = FileManager.default.contents(atPath: value) else {
            throw ConfigurationError(
                variable: "GATEHOUSE_APPLE_PRIVATE_KEY",
                problem: "is neither a PEM key nor a readable file (“\(value)”)"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func isAppleIdentifier(_ value: String) -> Bool {
        value.utf8.count == 10
            && value.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
            }
    }
}
