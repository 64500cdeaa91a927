package import Foundation

extension UUID {
    /// The 16 bytes of the UUID, in order.
    package var bytes: [UInt8] { withUnsafeBytes(of: uuid, Array.init) }

    /// The UUID of the first 16 of `bytes` (zero-filled when fewer).
    package init(bytes: [UInt8]) {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { buffer in
            for (index, byte) in bytes.prefix(16).enumerated() { buffer[index] = byte }
        }
        self.init(uuid: value)
    }
}
