import GatehouseFlows
import GatehouseStorage

/// The reauthentication code a caller may send beside a sensitive request's own fields
/// (``SensitiveActionGuard/Evidence``): `nonce`, as `PUT /user` takes it in GoTrue, or
/// `reauthentication_nonce` on `POST /token?grant_type=id_token`, whose `nonce` is the ID
/// token's.
struct ReauthenticationProof: Decodable, Sendable {
    var nonce: String?
    var reauthenticationNonce: String?

    enum CodingKeys: String, CodingKey {
        case nonce
        case reauthenticationNonce = "reauthentication_nonce"
    }
}
