#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes from the system's CSPRNG: the kernel's `getrandom` (through `getentropy`), the
/// source `SystemRandomNumberGenerator` draws from on Linux.
package enum SecureRandom {
    /// `count` random bytes in one call into the kernel per 256 bytes (`getentropy`)
    /// (issue 35: a sign-up drew its tokens and ids byte by byte, 2.6 % of its CPU; eight at a
    /// time still made a 32-byte token four system calls), else from
    /// `SystemRandomNumberGenerator` eight bytes at a time.
    package static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc) || canImport(Musl)
        var filled = 0
        while filled < buffer.count {
            let chunk = min(256, buffer.count - filled)
            guard getentropy(buffer.baseAddress! + filled, chunk) == 0 else {
                // No getrandom (a kernel older than 3.17): the standard library's generator,
                // which falls back to /dev/urandom.
                fillFromGenerator(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                return
            }
            filled += chunk
        }
        #else
        fillFromGenerator(buffer)
        #endif
    }

    private static func fillFromGenerator(_ buffer: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < buffer.count {
            let word: UInt64 = generator.next()
            let take = min(8, buffer.count - offset)
            withUnsafeBytes(of: word) { buffer[offset..<offset + take].copyBytes(from: $0.prefix(take)) }
            offset += take
        }
    }
}
