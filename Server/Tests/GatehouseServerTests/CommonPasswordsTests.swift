import Foundation
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The list of common passwords a new password is checked against.
@Suite("Common passwords")
struct CommonPasswordsTests {
    @Test func linesAreTrimmedLowercasedAndDeduplicatedCommentsSkipped() {
        let list = CommonPasswords(
            text: Array("# a comment\n  Password1\t\r\nletmein\n\nLETMEIN\n   \n#notapassword\nzzz\r\naaa".utf8)
        )
        #expect(list.count == 4)
        for entry in ["password1", "letmein", "zzz", "aaa"] { #expect(list.contains(entry), "\(entry)") }
        for absent in ["# a comment", "#notapassword", "", "password", "password12", "letmei", "zz", "aaaa", "b"] {
            #expect(!list.contains(absent), "\(absent)")
        }
    }

    @Test func anEntryWithOtherThanASCIIIsLowercasedAsThePasswordIs() {
        let list = CommonPasswords(text: Array("ÉTÉ2024!\nΣΟΦΙΑ1234\n".utf8))
        #expect(list.contains("ÉTÉ2024!".lowercased()))
        #expect(list.contains("ΣΟΦΙΑ1234".lowercased()))
        #expect(!list.contains("ete2024!"))
    }

    /// Entries that share their starts, one the start of another, and bytes above 0x7F: the
    /// list's order must be the order its bisection compares by, or entries go missing.
    @Test func entriesSharingTheirStartsAreEachFound() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = ["a", "b", "é", "z", "0", "ß"]
        var entries: Set<String> = []
        while entries.count < 2_000 {
            let length = Int.random(in: 1...6, using: &generator)
            entries.insert((0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined())
        }
        let list = CommonPasswords(text: Array(entries.shuffled(using: &generator).joined(separator: "\n").utf8))
        #expect(list.count == entries.count)
        let missing = entries.filter { !list.contains($0) }
        #expect(missing.isEmpty, "\(missing.sorted().prefix(10))")
        let absent = ["aaaaaaa", "bbbbbbbb", "éééééééé", "c", "zzzzzzz1"]
        #expect(absent.allSatisfy { !list.contains($0) })
    }

    @Test func anEmptyListHoldsNothing() {
        let list = CommonPasswords(text: Array("# only a comment\n\n".utf8))
        #expect(list.count == 0)
        #expect(!list.contains("password"))
    }

    /// Every entry of the bundled list is found, in a different case too, and the policy refuses it.
    @Test func everyBundledEntryIsFound() throws {
        let policy = try PasswordPolicy.loadBundled()
        let url = try #require(PasswordPolicy.bundledList)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(policy.commonPasswords.count == Set(lines.map { $0.lowercased() }).count)
        for line in lines { #expect(policy.commonPasswords.contains(line.lowercased()), "\(line)") }
        #expect(throws: APIError.self) { try policy.check("PassWord", email: nil) }
        #expect(!policy.commonPasswords.contains("correct horse battery staple"))
    }
}
