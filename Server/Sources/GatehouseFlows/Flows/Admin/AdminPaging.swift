import GatehouseCore
import GatehouseServerSupport
import HTTPTypes

/// The `page` and `per_page` of `GET /admin/users`: `page` from 1 to 1,000,000 and `per_page`
/// from 1 to 1,000 (below 1: 1); anything else (not a whole number, beyond the maximum) is 400
/// `validation_failed`, so no offset computed from them can overflow.
package struct AdminPaging: Equatable, Sendable {
    static let maximumPage = 1_000_000
    static let maximumPerPage = 1000

    package let page: Int
    package let perPage: Int

    /// The rows to skip: at most 999,999,000, far from overflow.
    var offset: Int { (page - 1) * perPage }

    package init(page: Int, perPage: Int) {
        self.page = page
        self.perPage = perPage
    }

    /// Parses the query values (absent: page 1, 50 per page).
    package init(page pageText: String?, perPage perPageText: String?) throws {
        self.init(
            page: try Self.parse(pageText, name: "page", default: 1, maximum: Self.maximumPage),
            perPage: try Self.parse(perPageText, name: "per_page", default: 50, maximum: Self.maximumPerPage)
        )
    }

    private static func parse(_ text: String?, name: String, default value: Int, maximum: Int) throws -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), number <= maximum else {
            throw APIError(.badRequest, .validationFailed, "\(name) must be a whole number from 1 to \(maximum)")
        }
        return max(1, number)
    }
}
