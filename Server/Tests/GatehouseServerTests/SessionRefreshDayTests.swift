import Foundation
import GatehouseCore
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// A refresh writes no column that an index of `sessions` holds, so that on PostgreSQL it is a
/// heap-only (HOT) update of the row; the sweep finds idle sessions by the day of their last
/// refresh (``SessionRefreshDay``).
@Suite("Sessions: a refresh updates the row alone, the sweep reads the refresh day")
struct SessionRefreshDayTests {
    // The catalog queries go to the executor directly: through `query` they would join the
    // statements that ``StatementPlanTests`` records from the whole process.

    /// The columns a rotation writes on every refresh.
    static let refreshedColumns: Set<String> = ["counter", "rotated_at", "refreshed_at", "refreshed_ip"]

    @Test func noIndexOfSessionsHoldsAColumnThatEveryRefreshWrites() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let indexed = try await harness.server.storage.read { reader in
            let tx = reader as! SQLTransaction
            let sql =
                switch tx.executor.dialect {
                case .sqlite:
                    """
                    SELECT info.name AS name FROM pragma_index_list('sessions') AS list,
                        pragma_index_info(list.name) AS info
                    """
                case .postgres:
                    """
                    SELECT a.attname AS name FROM pg_index i
                    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                    WHERE i.indrelid = 'sessions'::regclass
                    """
                }
            return Set(
                try await tx.executor.rows(sql, []).compactMap { row -> String? in
                    guard case .text(let name) = row.column("name") else { return nil }
                    return name
                }
            )
        }
        #expect(indexed.isSuperset(of: ["id", "user_id", "created_at", "refreshed_day"]), "\(indexed)")
        #expect(indexed.isDisjoint(with: Self.refreshedColumns), "\(indexed)")
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "heap-only updates are PostgreSQL's"))
    func refreshesOfOneDayAreHeapOnlyUpdatesAndTheNextDaysFirstIsNot() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let user = UserRecord(email: "hot@example.com", createdAt: now, updatedAt: now)
        let session = SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        try await harness.server.storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.insertSession(session)
        }
        // The counts of this transaction's own updates, which PostgreSQL reports at once.
        let (updated, heapOnly) = try await harness.server.storage.transaction { tx in
            var counter = session.counter
            // The clock starts 8 hours into a UTC day: twelve refreshes an hour apart stay in it.
            for hour in 0..<12 {
                let at = now.addingTimeInterval(Double(hour) * 3600)
                let won = try await tx.rotateSession(
                    id: session.id,
                    expectedCounter: counter,
                    at: at,
                    from: "203.0.113.9",
                    audit: AuditEntry(at: at, action: .tokenRefreshed, actorID: user.id)
                )
                #expect(won)
                counter += 1
            }
            let tomorrow = now.addingTimeInterval(SessionRefreshDay.length)
            _ = try await tx.rotateSession(
                id: session.id,
                expectedCounter: counter,
                at: tomorrow,
                from: nil,
                audit: AuditEntry(at: tomorrow, action: .tokenRefreshed, actorID: user.id)
            )
            let rows = try await (tx as! SQLTransaction).executor.rows(
                """
                SELECT pg_stat_get_xact_tuples_updated('sessions'::regclass) AS updated,
                    pg_stat_get_xact_tuples_hot_updated('sessions'::regclass) AS hot
                """,
                []
            )
            guard case .integer(let updated) = rows.first?.column("updated"),
                case .integer(let hot) = rows.first?.column("hot")
            else { return (-1, -1) }
            return (updated, hot)
        }
        #expect(updated == 13)
        #expect(heapOnly == 12, "the first refresh of a new day moves the row to a new index key")
        // Room for the next versions on each page: a full page makes even a HOT-able update move
        // the row to another page, with new index entries.
        let options = try await harness.server.storage.read { reader in
            try await (reader as! SQLTransaction).executor.rows(
                "SELECT array_to_string(reloptions, ',') AS options FROM pg_class WHERE relname = 'sessions'",
                []
            )
        }
        #expect(options.first?.column("options") == .text("fillfactor=90"))
    }

    @Test func theSweepDeletesAnIdleSessionOnceItsRefreshDayIsBeforeTheCutoffsDay() async throws {
        let harness = try await Harness.make()
        defer { harness.removeFiles() }
        let now = harness.clock.now()
        let day = SessionRefreshDay.length
        let dayStart = Date(timeIntervalSince1970: SessionRefreshDay.start(of: now))
        #expect(dayStart <= now && now.timeIntervalSince(dayStart) < day)
        let user = UserRecord(email: "idle@example.com", createdAt: now, updatedAt: now)
        // Refreshed this morning, and late last night: both idle a day later, by the exact time.
        let morning = SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        let lastNight = dayStart.addingTimeInterval(-1)
        let late = SessionRecord(userID: user.id, salt: "00", createdAt: lastNight, refreshedAt: lastNight, amr: [])
        try await harness.server.storage.transaction { tx in
            try await tx.insertUser(user)
            try await tx.insertSession(morning)
            try await tx.insertSession(late)
        }
        let sweep = { (refreshedBefore: Date) in
            try await harness.server.storage.transaction { tx in
                try await tx.deleteEndedSessions(
                    createdBefore: .distantPast,
                    refreshedBefore: refreshedBefore,
                    limit: 100
                )
            }
        }
        let left = {
            try await harness.server.storage.read {
                try await $0.sessions(
                    userID: user.id,
                    createdAfter: .distantPast,
                    refreshedAfter: .distantPast,
                    limit: 10
                )
            }.map(\.id)
        }
        // The cutoff just after this morning's refresh: last night's day is before the cutoff's
        // day and goes; this morning's is the cutoff's own day and waits.
        #expect(try await sweep(now.addingTimeInterval(1)) == 1)
        #expect(try await left() == [morning.id])
        #expect(try await sweep(dayStart.addingTimeInterval(day - 1)) == 0)
        // The next day: its cutoff's day starts after this morning's.
        #expect(try await sweep(dayStart.addingTimeInterval(day)) == 1)
        #expect(try await left().isEmpty)
    }
}
