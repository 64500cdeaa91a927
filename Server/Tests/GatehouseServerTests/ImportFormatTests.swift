import Foundation
import GatehouseCore
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The readers of the exports (issue 38), record by record: what no row of an export can carry
/// in, and CSV as `COPY … WITH CSV HEADER` writes it.
@Suite("Import: export formats")
struct ImportFormatTests {
    @Test func aSupabaseRowCannotCarryARoleIntoItsTokens() throws {
        let rows =
            #"[{"id": "6d3f1e1c-5b7a-4c1e-9a55-2f1c8b9d0e11", "email": "root@example.com", "role": "service_role"}]"#
        let records = try SupabaseExport.records(users: Data(rows.utf8), identities: nil, options: ImportOptions())
        guard case .user(let candidate) = try #require(records.first) else {
            Issue.record("refused: \(records)")
            return
        }
        #expect(candidate.user.role == "authenticated")
    }

    @Test func csvKeepsQuotedCommasQuotesAndLineBreaksAndTellsNullFromEmpty() throws {
        let text =
            "id,email,raw_user_meta_data,phone,note\r\n1,a@example.com,\"{\"\"name\"\": \"\"A, B\"\"}\",,\"\"\n2,b@example.com,\"line one\nline two\",x,\n"
        let rows = try CSVTable.rows(text)
        #expect(rows.count == 2)
        #expect(rows[0]["raw_user_meta_data"] as? String == #"{"name": "A, B"}"#)
        #expect(rows[0]["phone"] == nil, "an unquoted empty field is NULL")
        #expect(rows[0]["note"] as? String == "", "a quoted empty field is an empty string")
        #expect(rows[1]["raw_user_meta_data"] as? String == "line one\nline two")
        #expect(ExportRecord(fields: rows[0]).object("raw_user_meta_data") == ["name": .string("A, B")])
        #expect(throws: ImportFileError.self) { try CSVTable.rows("id,email\n1,\"open") }
    }

    @Test func everyRecordOfAnAddressThatDiffersOnlyInCaseIsRefused() throws {
        let export = #"""
            {"users": [{"localId": "a", "email": "Twin@example.com"}, {"localId": "b", "email": "twin@example.com"},
                       {"localId": "c", "email": "solo@example.com"}]}
            """#
        let records = try FirebaseExport.records(from: Data(export.utf8), options: ImportOptions())
        let candidates = records.enumerated().compactMap { index, record -> (index: Int, candidate: ImportCandidate)? in
            if case .user(let candidate) = record { (index, candidate) } else { nil }
        }
        #expect(UserImporter.conflictsWithinExport(candidates) == [0: .duplicateAddress, 1: .duplicateAddress])
    }
}
