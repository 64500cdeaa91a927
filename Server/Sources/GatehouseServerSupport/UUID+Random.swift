package import Foundation

extension UUID {
    /// A new random (version 4) UUID, its 122 random bits drawn in one call into the kernel
    /// (``SecureRandom``).
    ///
    /// Foundation's `UUID()` opens, reads and closes `/dev/urandom` for every id on Linux: three
    /// system calls and a path lookup, 3 % of the server's CPU in a PostgreSQL refresh, which
    /// makes up to three (issue 35).
    package static func random() -> UUID {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { buffer in
            SecureRandom.fill(buffer)
            buffer[6] = (buffer[6] & 0x0F) | 0x40
            buffer[8] = (buffer[8] & 0x3F) | 0x80
        }
        return UUID(uuid: value)
    }
}
