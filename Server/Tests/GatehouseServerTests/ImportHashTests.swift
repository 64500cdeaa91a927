import Foundation
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The hashes `gatehouse-server import` brings (issue 38): Firebase's scrypt variant against the
/// worked example of Firebase's own tool (github.com/firebase/scrypt, README), and the stored
/// forms of bcrypt hashes from Supabase and Auth0.
@Suite("Import: imported password hashes")
struct ImportHashTests {
    /// The sample "Password Hash Parameters" of the README, as the console shows them.
    static let consoleText = """
        hash_config {
          algorithm: SCRYPT,
          base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==,
          base64_salt_separator: Bw==,
          rounds: 8,
          mem_cost: 14,
        }
        """
    /// The README's exported account: its salt and the hash of `user1password`.
    static let salt = "42xEC+ixf3L2lw=="
    static let expectedHash = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="

    @Test func firebasesWorkedExampleHashesAndVerifies() throws {
        let parameters = try FirebaseHashParameters(consoleText: Self.consoleText)
        #expect(parameters.rounds == 8 && parameters.memoryCost == 14 && parameters.saltSeparator == Data([7]))
        let salt = try #require(Data(base64Encoded: Self.salt))
        let expected = try #require(Data(base64Encoded: Self.expectedHash))
        #expect(
            try FirebaseScrypt.hash("user1password", salt: salt, parameters: parameters).base64EncodedString()
                == Self.expectedHash
        )
        #expect(FirebaseScrypt.verify("user1password", salt: salt, expected: expected, parameters: parameters))
        #expect(!FirebaseScrypt.verify("user1Password", salt: salt, expected: expected, parameters: parameters))
        #expect(
            !FirebaseScrypt.verify(
                "user1password",
                salt: Data(salt.dropLast()),
                expected: expected,
                parameters: parameters
            )
        )
        var otherProject = parameters
        otherProject.signerKey[0] ^= 1
        #expect(!FirebaseScrypt.verify("user1password", salt: salt, expected: expected, parameters: otherProject))
    }

    @Test func theParametersComeFromTheEnvironmentAndNeverPrintTheirSecrets() throws {
        let parameters = try #require(
            try FirebaseHashParameters(environment: [
                "GATEHOUSE_FIREBASE_SIGNER_KEY":
                    "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
                "GATEHOUSE_FIREBASE_SALT_SEPARATOR": "Bw==",
                "GATEHOUSE_FIREBASE_ROUNDS": "8",
                "GATEHOUSE_FIREBASE_MEM_COST": "14",
            ])
        )
        #expect(parameters == (try FirebaseHashParameters(consoleText: Self.consoleText)))
        let printed = "\(parameters) \(String(reflecting: parameters))"
        #expect(!printed.contains("jxspr8") && !printed.contains("Bw=="))
        #expect(try FirebaseHashParameters(environment: [:]) == nil)
        #expect(throws: FirebaseHashParameters.Problem.self) {
            try FirebaseHashParameters(
                consoleText: Self.consoleText.replacingOccurrences(of: "SCRYPT", with: "HMAC_SHA256")
            )
        }
        let problem = #expect(throws: FirebaseHashParameters.Problem.self) {
            try FirebaseHashParameters(
                consoleText: Self.consoleText.replacingOccurrences(of: "mem_cost: 14", with: "mem_cost: 40")
            )
        }
        #expect(problem?.description.contains("jxspr8") == false)
    }

    @Test func storedFormsKeepBcryptAndFirebaseHashesApart() throws {
        let bcrypt = "$2a$10$" + String(repeating: "a", count: 53)
        #expect(StoredPasswordHash(stored: bcrypt) == .bcrypt(bcrypt))
        #expect(
            StoredPasswordHash.bcrypt("$2y$10$" + String(repeating: "a", count: 53)) == "$2b$10$"
                + String(repeating: "a", count: 53)
        )
        #expect(StoredPasswordHash.bcrypt("$2x$10$" + String(repeating: "a", count: 53)) == nil)
        #expect(StoredPasswordHash.bcrypt("$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA") == nil)
        let firebase = StoredPasswordHash.firebaseScrypt(
            salt: try #require(Data(base64Encoded: Self.salt)),
            hash: try #require(Data(base64Encoded: Self.expectedHash))
        )
        #expect(StoredPasswordHash(stored: firebase.stored) == firebase)
        #expect(firebase.stored.hasPrefix("$firebase-scrypt$42xEC+ixf3L2lw==$"))
    }

    @Test func onlyTheServersOwnBcryptIsLeftAsItIs() {
        let hasher = PasswordHasher(cost: 10)
        #expect(!hasher.needsRehash("$2b$10$" + String(repeating: "a", count: 53)))
        #expect(!hasher.needsRehash("$2b$12$" + String(repeating: "a", count: 53)))
        #expect(hasher.needsRehash("$2b$04$" + String(repeating: "a", count: 53)))
        #expect(hasher.needsRehash("$2a$10$" + String(repeating: "a", count: 53)))
        #expect(hasher.needsRehash("$firebase-scrypt$AA==$AA=="))
    }

    @Test func exportTimesReadInEveryShapeTheServicesWrite() throws {
        let moment = Date(timeIntervalSince1970: 1_705_314_600.123456)
        for text in [
            "2024-01-15T10:30:00.123456Z", "2024-01-15 10:30:00.123456+00", "2024-01-15T12:30:00.123456+02:00",
            "2024-01-15 05:30:00.123456-0500",
        ] {
            let date = try #require(ImportTimestamp.parse(text), "\(text)")
            #expect(abs(date.timeIntervalSince(moment)) < 0.000_01, "\(text)")
        }
        #expect(ImportTimestamp.parse("1705314600123") == Date(timeIntervalSince1970: 1_705_314_600.123))
        #expect(ImportTimestamp.parse("yesterday") == nil)
        #expect(ImportTimestamp.parse("2024-01-15T10:30:00 UTC") == nil)
    }
}
