package import GatehouseStorage

/// Who is calling: the verified claims of the bearer token, its live session and user.
///
/// ``BearerAuthenticator`` verifies it for the routes that need one, whose handlers read it
/// from ``CallerRequestContext/caller``.
package struct Caller: Sendable {
    var claims: VerifiedAccess
    package var session: SessionRecord
    package var user: UserRecord
}
