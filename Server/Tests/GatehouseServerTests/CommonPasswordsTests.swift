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
