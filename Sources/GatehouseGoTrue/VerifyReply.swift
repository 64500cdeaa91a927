import GatehouseCore

/// What `POST /verify` answers: a session, or, for one side of a secure e-mail change,
/// `{"msg": "Confirmation link accepted. …", "code": "200"}` (`code` a string, as GoTrue sends it).
enum VerifyReply: Decodable, Sendable {
    case session(WireSession)
    case otherAddressPending(message: String)

    private enum Keys: String, CodingKey {
        case accessToken = "access_token"
        case msg
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if !container.contains(.accessToken), let message = try container.decodeIfPresent(String.self, forKey: .msg) {
            self = .otherAddressPending(message: message)
        } else {
            self = .session(try WireSession(from: decoder))
        }
    }
}
