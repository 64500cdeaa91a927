import Gatehouse

/// A `/signup` reply: a session when the account is usable at once, else a bare user awaiting
/// confirmation (GoTrue never wraps one in the other).
enum SessionOrUser: Decodable, Sendable {
    case session(WireSession)
    case user(WireUser)

    private enum Keys: String, CodingKey {
        case accessToken = "access_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.accessToken) {
            self = .session(try WireSession(from: decoder))
        } else {
            self = .user(try WireUser(from: decoder))
        }
    }
}

/// A reply whose body does not matter (`{}`, or 204 with none).
struct EmptyReply: Decodable, Sendable {}
