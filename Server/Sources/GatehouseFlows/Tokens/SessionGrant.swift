import Foundation
import GatehouseStorage

/// A session granted inside a transaction, signed into tokens only after that transaction
/// commits: signing takes no database lock, and nothing is signed for a grant that rolled back.
struct SessionGrant: Sendable {
    var user: UserRecord
    var session: SessionRecord
    /// The refresh counter the answer's refresh token carries.
    var counter: Int64
}
