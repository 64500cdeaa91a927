#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), parsed strictly (`inet_pton`): no ports,
/// no zone ids, no names. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    var isIPv6: Bool { bytes.count == 16 }

    /// Parses `text`; `nil` for anything that is not exactly one address.
    package init?(_ text: some StringProtocol) {
        let text = String(text)
        guard text.utf8.count <= 45, !text.isEmpty else { return nil }
        // Plain byte buffers rather than `in_addr()`/`in6_addr()`, whose zero initialisers a
        // clean build attributes to NIO's C module (MemberImportVisibility).
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = v4
            return
        }
        var raw = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &raw) == 1 else { return nil }
        if raw[0..<10].allSatisfy({ $0 == 0 }) && raw[10] == 0xFF && raw[11] == 0xFF {
            bytes = Array(raw[12..<16])
        } else {
            bytes = raw
        }
    }

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The address in its canonical text (`inet_ntop`).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv6 ? AF_INET6 : AF_INET
        _ = copy.withUnsafeMutableBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first `bits` bits, the rest zero.
    package func masked(to bits: Int) -> IPAddress {
        IPAddress(
            bytes: bytes.enumerated().map { index, byte in
                let kept = min(8, max(0, bits - index * 8))
                return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
            }
        )
    }
}
