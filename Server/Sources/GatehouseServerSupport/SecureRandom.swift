/// Random bytes from the system's CSPRNG (`SystemRandomNumberGenerator`).
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
