/// Random bytes from the system's CSPRNG (`SystemRandomNumberGenerator`).
package enum SecureRandom {
    /// `count` random bytes, taken eight at a time: each draw of the generator is a call into
    /// the kernel (`getrandom`), so a 32-byte token costs four, not 32 (issue 35: a sign-up drew
    /// its tokens and ids byte by byte, 2.6 % of its CPU).
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
