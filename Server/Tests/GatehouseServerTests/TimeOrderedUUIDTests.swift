import Foundation
import HTTPTypes
import Testing

@testable import GatehouseServer

/// Session ids are version 7 UUIDs (time first, then randomness), so new sessions land at the
/// end of the sessions table's indexes; account ids stay random.
@Suite("Time-ordered session ids")
struct TimeOrderedUUIDTests {
    @Test func theLayoutIsRFC9562sVersion7() {
        let date = Date(timeIntervalSince1970: 1_764_115_200.123_9)
        let bytes = UUID.timeOrdered(at: date).bytes
        let milliseconds = bytes.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_764_115_200_123)
        #expect(bytes[6] >> 4 == 7, "version 7")
        #expect(bytes[8] >> 6 == 0b10, "RFC 9562 variant")
        // Before 1970 the time part is zero, never a wrapped negative number.
        #expect(UUID.timeOrdered(at: Date(timeIntervalSince1970: -5)).bytes.prefix(6).allSatisfy { $0 == 0 })
    }

    @Test func idsSortByTimeAsTextAndDifferWithinOneMillisecond() {
        let start = Date(timeIntervalSince1970: 1_764_115_200)
        func milliseconds(_ id: UUID) -> UInt64 { id.bytes.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        // Half a millisecond in, so that no time sits on a millisecond's edge.
        let ids = (0..<2_000).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.001 + 0.000_5)) }
        let times = ids.map(milliseconds)
        let increasing = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
        #expect(increasing, "later ids carry later times")
        #expect(Set(times).count == 2_000)
        // The stored text sorts as the time: sorting by text never puts a later time first.
        let byText = ids.sorted { $0.key < $1.key }.map(milliseconds)
        #expect(zip(byText, byText.dropFirst()).allSatisfy { $0 <= $1 })
        let sameMillisecond = (0..<10_000).map { _ in UUID.timeOrdered(at: start) }
        #expect(Set(sameMillisecond).count == sameMillisecond.count)
        // 74 random bits: every one of them varies across the ids of one millisecond.
        var varying = [UInt8](repeating: 0, count: 16)
        let first = sameMillisecond[0].bytes
        for id in sameMillisecond {
            for (index, byte) in id.bytes.enumerated() { varying[index] |= byte ^ first[index] }
        }
        #expect(varying == [0, 0, 0, 0, 0, 0, 0x0F, 0xFF, 0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test func aSignUpsSessionIdIsTimeOrderedAndItsAccountIdRandom() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        try await harness.live { client in
            let guest = try await client.post("/signup", "{}")
            #expect(guest.status == .ok)
            let claims = accessClaims(guest.string("access_token"))
            let session = try #require((claims["session_id"] as? String).flatMap(UUID.init(uuidString:)))
            let account = try #require((guest.user["id"] as? String).flatMap(UUID.init(uuidString:)))
            #expect(session.bytes[6] >> 4 == 7)
            #expect(account.bytes[6] >> 4 == 4)
            let made = session.bytes.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let now = UInt64(Date().timeIntervalSince1970 * 1_000)
            #expect(made <= now && now - made < 60_000, "the session's id carries the time it was made")
        }
    }
}
