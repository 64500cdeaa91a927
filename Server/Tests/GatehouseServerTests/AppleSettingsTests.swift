import Crypto
import Foundation
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Apple's developer key settings (issue 21): all or nothing, with clear errors.
@Suite("Apple developer key settings")
struct AppleSettingsTests {
    static let pem = P256.Signing.PrivateKey().pemRepresentation
    static let complete = [
        "GATEHOUSE_APPLE_CLIENT_IDS": "com.example.app",
        "GATEHOUSE_APPLE_TEAM_ID": "TEAM123456",
        "GATEHOUSE_APPLE_KEY_ID": "KEY9876543",
        "GATEHOUSE_APPLE_PRIVATE_KEY": pem,
    ]

    @Test func aCompleteSetupIsRead() throws {
        let configuration = try ServerConfiguration(environment: Self.complete)
        #expect(configuration.appleAccount?.teamID == "TEAM123456")
        #expect(configuration.appleAccount?.keyID == "KEY9876543")
        #expect(configuration.appleBaseURL.absoluteString == "https://appleid.apple.com")
        #expect(configuration.apple.jwksURL.absoluteString == "https://appleid.apple.com/auth/keys")
        #expect(!"\(configuration.appleAccount!)".contains("PRIVATE KEY"))
        // The key as one line with \n escapes (env files), or as a file path.
        var escaped = Self.complete
        escaped["GATEHOUSE_APPLE_PRIVATE_KEY"] = Self.pem.replacingOccurrences(of: "\n", with: "\\n")
        #expect(try ServerConfiguration(environment: escaped).appleAccount != nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID().uuidString).p8")
        try Data(Self.pem.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var path = Self.complete
        path["GATEHOUSE_APPLE_PRIVATE_KEY"] = file.path
        #expect(try ServerConfiguration(environment: path).appleAccount?.privateKeyPEM == Self.pem)
        // Tests point Apple at loopback; the key set follows unless named.
        var local = Self.complete
        local["GATEHOUSE_APPLE_BASE_URL"] = "http://127.0.0.1:8080"
        #expect(
            try ServerConfiguration(environment: local).apple.jwksURL.absoluteString
                == "http://127.0.0.1:8080/auth/keys"
        )
        #expect(try ServerConfiguration(environment: [:]).appleAccount == nil)
    }

    @Test func aHalfConfiguredSetupIsRefusedByName() throws {
        let cases: [(String, [String: String?], String)] = [
            ("no key", ["GATEHOUSE_APPLE_PRIVATE_KEY": nil], "GATEHOUSE_APPLE_PRIVATE_KEY"),
            (
                "team only", ["GATEHOUSE_APPLE_PRIVATE_KEY": nil, "GATEHOUSE_APPLE_KEY_ID": nil],
                "GATEHOUSE_APPLE_KEY_ID"
            ),
            ("no client ids", ["GATEHOUSE_APPLE_CLIENT_IDS": nil], "GATEHOUSE_APPLE_CLIENT_IDS"),
            ("bad team", ["GATEHOUSE_APPLE_TEAM_ID": "team"], "GATEHOUSE_APPLE_TEAM_ID"),
            ("bad key id", ["GATEHOUSE_APPLE_KEY_ID": "KEY 987654"], "GATEHOUSE_APPLE_KEY_ID"),
            (
                "not a key",
                ["GATEHOUSE_APPLE_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"],
                "GATEHOUSE_APPLE_PRIVATE_KEY"
            ),
            ("missing file", ["GATEHOUSE_APPLE_PRIVATE_KEY": "/nonexistent/AuthKey.p8"], "GATEHOUSE_APPLE_PRIVATE_KEY"),
            ("plain http", ["GATEHOUSE_APPLE_BASE_URL": "http://apple.example"], "GATEHOUSE_APPLE_BASE_URL"),
        ]
        for (name, changes, variable) in cases {
            var environment = Self.complete
            for (key, value) in changes { environment[key] = value }
            #expect(throws: (any Error).self, "\(name)") { try ServerConfiguration(environment: environment) }
            do {
                _ = try ServerConfiguration(environment: environment)
            } catch let error as ConfigurationError {
                #expect(error.variable.contains(variable), "\(name): \(error)")
            }
        }
    }
}
