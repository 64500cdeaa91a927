import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseStorage
import Logging
import PostgresNIO

/// Issue 18: how fast the background sweep deletes sessions that ended, with `sessions` of them
/// in the table (1,000,000 by default) beside a thousand live ones it must keep. The server is
/// built in this process on the benchmark's database; the sweep runs as the application runs it
/// (batches of 500 rows, one transaction each), pass after pass until nothing is left.
enum SessionSweepBench {
    struct Result {
        var deleted: Int
        var seconds: Double
        var passes: Int
    }

    static let liveSessions = 1_000

    static func run(
        database: BenchDatabase,
        environment: [String: String],
        sessions: Int,
        logger: Logger
    ) async throws -> Result {
        let configuration = try ServerConfiguration(environment: environment)
        let app = try await buildServer(configuration: configuration, logger: logger)
        let now = Date()
        let user = UserRecord(
            email: "sweep-\(UUID().uuidString.lowercased())@example.com",
            createdAt: now,
            updatedAt: now
        )
        let ended = now.addingTimeInterval(-400 * 86_400)
        let live = (0..<liveSessions).map { _ in
            SessionRecord(userID: user.id, salt: "00", createdAt: now, refreshedAt: now, amr: [])
        }
        try await app.storage.transaction { tx in
            try await tx.insertUser(user)
            for session in live { try await tx.insertSession(session) }
        }
        print("  inserting \(sessions) ended sessions…")
        if let client = database.client {
            // One statement: a million round trips would measure the network, not the sweep.
            try await client.query(
                """
                INSERT INTO sessions (id, user_id, salt, counter, created_at, refreshed_at, amr, refreshed_day)
                SELECT gen_random_uuid()::text, \(user.id.uuidString.lowercased()), '00', 0,
                    \(ended.timeIntervalSince1970), \(ended.timeIntervalSince1970), '[]',
                    floor(\(ended.timeIntervalSince1970) / 86400) * 86400
                FROM generate_series(1, \(sessions))
                """,
                logger: logger
            )
        } else {
            var left = sessions
            while left > 0 {
                let count = min(left, 20_000)
                try await app.storage.transaction { tx in
                    for _ in 0..<count {
                        try await tx.insertSession(
                            SessionRecord(userID: user.id, salt: "00", createdAt: ended, refreshedAt: ended, amr: [])
                        )
                    }
                }
                left -= count
            }
        }
        print("  sweeping…")
        let clock = ContinuousClock()
        var deleted = 0
        var passes = 0
        let elapsed = try await clock.measure {
            while true {
                let pass = try await app.sweepEndedSessions()
                passes += 1
                deleted += pass
                if pass == 0 { break }
            }
        }
        for session in live {
            guard try await app.storage.read({ try await $0.session(id: session.id) }) != nil else {
                fatalError("the sweep deleted a live session")
            }
        }
        try await app.storage.close()
        return Result(deleted: deleted, seconds: seconds(elapsed), passes: passes)
    }
}
