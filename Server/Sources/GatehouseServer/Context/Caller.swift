import GatehouseStorage

/// Who is calling: the verified claims of the bearer token, its live session and user.
///
/// ``CallerMiddleware`` puts it on ``AppRequestContext/caller`` for the routes that need one.
struct Caller: Sendable {
    var claims: VerifiedAccess
    var session: SessionRecord
    var user: UserRecord
}
