import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562, section 5.7): the Unix time in milliseconds in the first 48
    /// bits, then the version and variant, and 74 bits from the system's CSPRNG.
    ///
    /// Session ids are made this way so that new sessions, and the sessions still in use, sit at
    /// the end of the sessions table's indexes instead of on random pages of them: at millions of
    /// rows those pages are no longer all in the database's cache. A session id is not a secret
    /// (it is in every access token; a refresh token is authenticated by its MAC), and the time
    /// it carries is the session's creation, which its owner already knows. Account ids stay
    /// random (version 4): they may be shown to other people, and need not tell when an account
    /// was made.
    static func timeOrdered(at date: Date = Date()) -> UUID {
        var bytes = SecureRandom.bytes(16)
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1_000).rounded(.down))) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(bytes: bytes)
    }
}
