import Foundation
import GatehouseCore

extension SQLTransaction {
    package func codes(purpose: CodePurpose, email: String) async throws -> [CodeRecord] {
        try await query(
            "SELECT \(Self.codeColumns) FROM one_time_codes WHERE purpose = ? AND email = ? ORDER BY created_at",
            [.text(purpose.rawValue), .text(email.lowercased())]
        ).map(code(from:))
    }
}
