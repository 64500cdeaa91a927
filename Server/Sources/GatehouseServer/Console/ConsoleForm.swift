import Foundation
import GatehouseFlows
import GatehouseStorage
import Hummingbird

/// The names of the console's form and query fields.
enum ConsoleField: String, Sendable {
    case csrf, email, password, code, next, duration, kid, page, done, confirm
    case query = "q"
    case challengeID = "challenge_id"
    case credential
    case user, action, from, until, before, address, filter, provider, after
}

/// A console request's fields: a form body (at most 64 KiB, else 413) and the query.
struct ConsoleForm: Sendable {
    let fields: [(String, String)]

    static func read(_ request: Request, context: some RequestContext) async throws -> ConsoleForm {
        ConsoleForm(fields: try await FormFields.formAndQuery(of: request, context: context))
    }

    static func query(_ request: Request) -> ConsoleForm {
        ConsoleForm(fields: FormFields.query(of: request))
    }

    /// The first value of `field`, trimmed; `nil` when absent or empty.
    subscript(_ field: ConsoleField) -> String? {
        guard let value = fields.first(where: { $0.0 == field.rawValue })?.1 else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The value of `field` as it was sent (a password keeps its spaces).
    func raw(_ field: ConsoleField) -> String {
        fields.first(where: { $0.0 == field.rawValue })?.1 ?? ""
    }
}
