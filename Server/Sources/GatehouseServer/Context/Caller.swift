import GatehouseStorage

/// Who is calling: the verified claims of the bearer token, its live session and user.
///
/// ``BearerAuthenticator`` verifies it for the routes that need one, whose handlers read it
/// from ``CallerRequestContext/caller``.
struct Caller: Sendable {
    var claims: VerifiedAccess
    var session: SessionRecord
    var user: UserRecord
}
