import Foundation

/// Who the client is, for rate limits and the audit log: the socket peer, or, when the peer
/// is a trusted proxy and a client-address header is configured (`GATEHOUSE_TRUSTED_PROXIES`,
/// `GATEHOUSE_RATE_LIMIT_HEADER`), the rightmost address in that header that is not itself a
/// trusted proxy. Everything left of it was written by the client and proves nothing.
package struct ClientAddress: Sendable {
    package let trustedProxies: [CIDR]
    /// The header a trusted proxy appends the client address to, such as `X-Forwarded-For`.
    package let header: String?

    /// The rule that trusts `trustedProxies` to append the client's address to `header`.
    package init(trustedProxies: [CIDR], header: String?) {
        self.trustedProxies = trustedProxies
        self.header = header
    }

    /// The client's address as text.
    ///
    /// - Parameters:
    ///   - peer: The socket peer's address.
    ///   - headerValues: Every value of the configured header, in order.
    package func derive(peer: String?, headerValues: [String]) -> String {
        guard let peerText = peer, let peerAddress = IPAddress(peerText) else { return peer ?? "unknown" }
        guard header != nil, isTrusted(peerAddress) else { return peerAddress.description }
        var client = peerAddress
        let hops = headerValues.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // A hop that is not an address ends the chain: what is left of it is not trusted.
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.description
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The rate-limit key of an address: IPv6 clients by their /64 (one subscriber's network),
    /// IPv4 by the address; a key that is not an address (an account, `server`) is unchanged.
    package static func limitKey(_ key: String) -> String {
        guard let address = IPAddress(key) else { return key }
        guard address.isIPv6 else { return address.description }
        return "\(address.masked(to: 64))/64"
    }
}
