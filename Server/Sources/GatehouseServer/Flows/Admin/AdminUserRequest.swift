import GatehouseCore

/// The body of `POST /admin/users` and `PUT /admin/users/{id}`.
struct AdminUserRequest: Decodable, Sendable {
    var email: String?
    var password: String?
    var emailConfirm: Bool?
    var userMetadata: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
    var banDuration: String?

    enum CodingKeys: String, CodingKey {
        case email, password
        case emailConfirm = "email_confirm"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case banDuration = "ban_duration"
    }
}
