import GatehouseCore

/// The body of `POST /admin/users` and `PUT /admin/users/{id}`.
package struct AdminUserRequest: Decodable, Sendable {
    var email: String?
    var password: String?
    var emailConfirm: Bool?
    var userMetadata: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
    var banDuration: String?

    /// A change of the ban alone (the console's ban and unban): a duration, or `"none"`.
    package init(banDuration: String) {
        self.banDuration = banDuration
    }

    enum CodingKeys: String, CodingKey {
        case email, password
        case emailConfirm = "email_confirm"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case banDuration = "ban_duration"
    }
}
