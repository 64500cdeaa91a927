import Foundation
import GatehouseCore
import Testing

@Suite("Wire coding")
struct WireCodingTests {
    @Test func parsesTimestampsWithAndWithoutFractionalSeconds() throws {
        let micro = try #require(WireCoding.parseTimestamp("2024-01-02T03:04:05.123456Z"))
        let plain = try #require(WireCoding.parseTimestamp("2024-01-02T03:04:05Z"))
        #expect(abs(micro.timeIntervalSince(plain) - 0.123456) < 0.001)
        #expect(WireCoding.parseTimestamp("yesterday") == nil)
    }

    @Test func formatsTimestampsAsUTCWithMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        #expect(WireCoding.formatTimestamp(date) == "2023-11-14T22:13:20.500Z")
    }
}
