/// A network such as `10.0.0.0/8` or `2001:db8::/32` (a bare address is a network of one),
/// from `GATEHOUSE_TRUSTED_PROXIES`.
package struct CIDR: Hashable, Sendable, CustomStringConvertible {
    package let network: IPAddress
    package let bits: Int

    /// Parses `text`; `nil` when it is not an address with an optional prefix length in range.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(parts[0]) else { return nil }
        let width = address.bytes.count * 8
        var bits = width
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...width).contains(length), parts[1].allSatisfy(\.isNumber) else {
                return nil
            }
            bits = length
        }
        self.bits = bits
        network = address.masked(to: bits)
    }

    /// Whether `address` lies in this network (never across IPv4 and IPv6).
    package func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && address.masked(to: bits) == network
    }

    package var description: String { "\(network)/\(bits)" }
}
