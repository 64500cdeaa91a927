import Foundation
import Logging
import PostgresNIO
import VaporCSQLite

/// The benchmark's bulk path into a migrated, stopped server's database: users (``SeedLayout``)
/// with their identities, and session rows written "over time" (two years of sign-ins, most of
/// them ended, a tenth recent and live). Used only here: the server never takes this path.
///
/// SQLite: one connection through the C API, journal and syncing off while it loads, prepared
/// inserts in 100,000-row transactions, the secondary indexes of the loaded tables dropped
/// first and built again after (a sort instead of millions of random inserts); journal mode
/// WAL again at the end, as the server wants it. PostgreSQL: `INSERT … SELECT` over
/// `generate_series`, with foreign-key triggers off for the load and the sessions' indexes
/// built after it, then `VACUUM ANALYZE` (what autovacuum would have done by then) and a
/// `CHECKPOINT`.
enum Seeder {
    /// Seeded session rows end within two years; a tenth were signed in within the last 30 days.
    static let history: TimeInterval = 730 * 86_400
    static let recent: TimeInterval = 30 * 86_400

    // MARK: - SQLite

    static func seedSQLite(
        path: String,
        users: Range<Int>,
        sessions: Int,
        sessionUsers: Int,
        passwordHash: String,
        now: Date
    ) throws {
        let database = try SeedDatabase(path: path)
        defer { database.close() }
        for pragma in [
            "PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", "PRAGMA cache_size=-1000000",
            "PRAGMA foreign_keys=OFF",
        ] {
            try database.execute(pragma)
        }
        let tables = ["users", "identities", "sessions"]
        let indexes = try tables.flatMap { try database.indexes(of: $0) }
        for index in indexes { try database.execute("DROP INDEX \(index.name)") }

        let seconds = now.timeIntervalSince1970
        let insertUser = try database.prepare(
            """
            INSERT INTO users (id, email, encrypted_password, email_confirmed_at, last_sign_in_at,
                raw_app_meta_data, raw_user_meta_data, is_anonymous, role, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'authenticated', ?, ?)
            """
        )
        let insertIdentity = try database.prepare(
            """
            INSERT INTO identities (id, user_id, provider, provider_id, email, identity_data, last_sign_in_at,
                created_at, updated_at)
            VALUES (?, ?, 'apple', ?, ?, ?, ?, ?, ?)
            """
        )
        try database.inBatches(users) { index in
            let row = UserRow(index: index, now: seconds)
            try insertUser.run([
                .text(SeedLayout.userID(index)), row.email.map(SeedValue.text) ?? .null,
                row.kind == .password ? .text(passwordHash) : .null, row.confirmedAt.map(SeedValue.real) ?? .null,
                .real(row.lastSignInAt), .text(row.appMetadata), .text(row.userMetadata),
                .integer(row.kind == .guest ? 1 : 0), .real(row.createdAt), .real(row.lastSignInAt),
            ])
            if row.kind == .apple {
                try insertIdentity.run([
                    .text(SeedLayout.spreadUUID(index, of: SeedLayout.capacity, salt: 0x6964)),
                    .text(SeedLayout.userID(index)), .text(row.appleSubject), .text(SeedLayout.appleEmail(index)),
                    .text(row.appleIdentityData), .real(row.lastSignInAt), .real(row.createdAt),
                    .real(row.lastSignInAt),
                ])
            }
        }
        insertUser.finalize()
        insertIdentity.finalize()

        let insertSession = try database.prepare(
            """
            INSERT INTO sessions (id, user_id, salt, counter, created_at, refreshed_at, rotated_at, amr,
                device, created_ip, refreshed_ip, refreshed_day)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        try database.inBatches(0..<sessions) { index in
            let row = SessionRow(index: index, now: seconds)
            try insertSession.run([
                .text(SeedLayout.spreadUUID(index, of: sessions, salt: 0x7365_7373)),
                .text(SeedLayout.userID(Int(SeedLayout.mix(UInt64(index) ^ 0x5555) % UInt64(sessionUsers)))),
                .text(row.salt), .integer(row.counter), .real(row.createdAt), .real(row.refreshedAt),
                .real(row.refreshedAt), .text(row.amr), .text(row.device), .text(row.ip), .text(row.ip),
                .real(row.refreshedDay),
            ])
        }
        insertSession.finalize()
        for index in indexes { try database.execute(index.sql) }
        try database.execute("PRAGMA journal_mode=WAL")
    }

    // MARK: - PostgreSQL

    static func seedPostgres(
        client: PostgresClient,
        users: Range<Int>,
        sessions: Int,
        sessionUsers: Int,
        passwordHash: String,
        now: Date,
        logger: Logger
    ) async throws {
        let seconds = now.timeIntervalSince1970
        let (first, last) = (users.lowerBound, users.upperBound - 1)
        let history = Self.history
        try await client.withConnection { connection in
            // Foreign-key triggers off for this connection's load (the rows are consistent by
            // construction); the bench database's owner is a superuser.
            try await connection.query("SET session_replication_role = replica", logger: logger)
            try await connection.query(
                """
                INSERT INTO users (id, email, encrypted_password, email_confirmed_at, last_sign_in_at,
                    raw_app_meta_data, raw_user_meta_data, is_anonymous, role, created_at, updated_at)
                SELECT md5('gatehouse-user-' || i)::uuid::text,
                    CASE WHEN i % 20 = 0 THEN NULL
                        WHEN i % 20 IN (1, 2) THEN 'relay' || i || '@privaterelay.appleid.com'
                        ELSE 'user' || i || '@example.com' END,
                    CASE WHEN i % 20 >= 3 THEN \(passwordHash) END,
                    CASE WHEN i % 20 <> 0 THEN t.created END,
                    t.created + 86400,
                    CASE WHEN i % 20 = 0 THEN '{"provider":"anonymous","providers":["anonymous"]}'
                        WHEN i % 20 IN (1, 2) THEN '{"provider":"apple","providers":["apple"]}'
                        ELSE '{"provider":"email","providers":["email"]}' END,
                    CASE WHEN i % 20 = 0 THEN '{}'
                        ELSE '{"full_name":"User ' || i || '","locale":"en-GB","newsletter":' ||
                            CASE WHEN i % 3 = 0 THEN 'true' ELSE 'false' END || '}' END,
                    CASE WHEN i % 20 = 0 THEN 1 ELSE 0 END, 'authenticated', t.created, t.created + 86400
                FROM (SELECT i, \(seconds) - random() * \(history) AS created
                    FROM generate_series(\(first), \(last)) i OFFSET 0) t
                """,
                logger: logger
            )
            // The replica role held back the trigger that counts users (`user_counts`).
            if !users.isEmpty {
                try await connection.query(
                    "UPDATE user_counts SET n = n + \(users.count) WHERE slot = 0",
                    logger: logger
                )
            }
            try await connection.query(
                """
                INSERT INTO identities (id, user_id, provider, provider_id, email, identity_data, last_sign_in_at,
                    created_at, updated_at)
                SELECT md5('gatehouse-identity-' || i)::uuid::text, md5('gatehouse-user-' || i)::uuid::text,
                    'apple', '00' || i || '.' || md5('apple-' || i) || '.0420',
                    'relay' || i || '@privaterelay.appleid.com',
                    '{"sub":"00' || i || '","email":"relay' || i ||
                        '@privaterelay.appleid.com","email_verified":true,"is_private_email":true}',
                    \(seconds), \(seconds) - 86400 * 30, \(seconds)
                FROM generate_series(\(first), \(last)) i WHERE i % 20 IN (1, 2)
                """,
                logger: logger
            )
            guard sessions > 0 else { return }
            var indexes: [(name: String, definition: String)] = []
            let rows = try await connection.query(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'sessions' AND indexname <> 'sessions_pkey'",
                logger: logger
            )
            for try await index in rows.decode((String, String).self) { indexes.append(index) }
            for index in indexes {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP INDEX \(index.name)"), logger: logger)
            }
            // The keys that refer to a session (the console's sessions) hang on its primary key:
            // they are dropped with it and made again after the load.
            var references: [(table: String, name: String, definition: String)] = []
            let keys = try await connection.query(
                """
                SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE confrelid = 'sessions'::regclass AND contype = 'f'
                """,
                logger: logger
            )
            for try await key in keys.decode((String, String, String).self) { references.append(key) }
            for key in references {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "ALTER TABLE \(key.table) DROP CONSTRAINT \(key.name)"),
                    logger: logger
                )
            }
            try await connection.query("ALTER TABLE sessions DROP CONSTRAINT sessions_pkey", logger: logger)
            let recent = Self.recent
            try await connection.query(
                """
                INSERT INTO sessions (id, user_id, salt, counter, created_at, refreshed_at, rotated_at, amr,
                    device, created_ip, refreshed_ip, refreshed_day)
                SELECT md5('gatehouse-session-' || k)::uuid::text,
                    md5('gatehouse-user-' || floor(random() * \(sessionUsers))::int)::uuid::text,
                    md5(k::text), floor(random() * 40)::int, created, refreshed, refreshed,
                    '[{"method":"password","timestamp":' || created::bigint || '}]',
                    CASE WHEN k % 3 = 0 THEN 'Safari on iPhone' WHEN k % 3 = 1 THEN 'MyApp/2.4 (iPad; iOS 18.1)'
                        ELSE 'Chrome on macOS' END,
                    '203.0.113.' || (k % 250), '198.51.100.' || (k % 250), floor(refreshed / 86400) * 86400
                FROM (SELECT k, created, least(created + random() * 864000, \(seconds)) AS refreshed
                    FROM (SELECT k, CASE WHEN k % 10 = 0 THEN \(seconds) - random() * \(recent)
                            ELSE \(seconds) - random() * \(history) END AS created
                        FROM generate_series(1, \(sessions)) k OFFSET 0) t OFFSET 0) r
                """,
                logger: logger
            )
            try await connection.query("ALTER TABLE sessions ADD PRIMARY KEY (id)", logger: logger)
            for index in indexes {
                try await connection.query(PostgresQuery(unsafeSQL: index.definition), logger: logger)
            }
            for key in references {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "ALTER TABLE \(key.table) ADD CONSTRAINT \(key.name) \(key.definition)"
                    ),
                    logger: logger
                )
            }
        }
        try await client.query("VACUUM ANALYZE", logger: logger)
        // The load's gigabytes of dirty pages are flushed now, not by a checkpoint in the middle of
        // the measured rows.
        try await client.query("CHECKPOINT", logger: logger)
    }

    // MARK: - Rows

    /// A seeded user's values (SQLite; PostgreSQL builds the same in SQL).
    struct UserRow {
        let kind: SeedLayout.Kind
        let email: String?
        let confirmedAt: Double?
        let createdAt: Double
        let lastSignInAt: Double
        let appMetadata: String
        let userMetadata: String
        let appleSubject: String
        let appleIdentityData: String

        init(index: Int, now: Double) {
            kind = SeedLayout.kind(index)
            createdAt = now - Double(SeedLayout.mix(UInt64(index)) % UInt64(Seeder.history))
            lastSignInAt = createdAt + 86_400
            appleSubject = "00\(index).\(String(SeedLayout.mix(UInt64(index) ^ 0xA), radix: 16)).0420"
            switch kind {
            case .guest:
                email = nil
                confirmedAt = nil
                appMetadata = #"{"provider":"anonymous","providers":["anonymous"]}"#
                userMetadata = "{}"
                appleIdentityData = ""
            case .apple:
                email = SeedLayout.appleEmail(index)
                confirmedAt = createdAt
                appMetadata = #"{"provider":"apple","providers":["apple"]}"#
                userMetadata = #"{"full_name":"User \#(index)","locale":"en-GB","newsletter":false}"#
                appleIdentityData =
                    #"{"sub":"\#(appleSubject)","email":"\#(SeedLayout.appleEmail(index))","email_verified":true,"is_private_email":true}"#
            case .password:
                email = SeedLayout.email(index)
                confirmedAt = createdAt
                appMetadata = #"{"provider":"email","providers":["email"]}"#
                userMetadata = #"{"full_name":"User \#(index)","locale":"en-GB","newsletter":\#(index % 3 == 0)}"#
                appleIdentityData = ""
            }
        }
    }

    /// A seeded session's values (SQLite).
    struct SessionRow {
        let salt: String
        let counter: Int
        let createdAt: Double
        let refreshedAt: Double
        /// The start of `refreshedAt`'s UTC day (the server's `sessions.refreshed_day`).
        let refreshedDay: Double
        let amr: String
        let device: String
        let ip: String

        init(index: Int, now: Double) {
            let random = SeedLayout.mix(UInt64(index) ^ 0x5E55)
            let span = index % 10 == 0 ? Seeder.recent : Seeder.history
            createdAt = now - Double(random % UInt64(span))
            refreshedAt = min(now, createdAt + Double((random >> 20) % 864_000))
            refreshedDay = (refreshedAt / 86_400).rounded(.down) * 86_400
            salt = String(SeedLayout.mix(random), radix: 16).leftPadded(16) + String(random, radix: 16).leftPadded(16)
            counter = Int(random >> 58)
            amr = #"[{"method":"password","timestamp":\#(Int(createdAt))}]"#
            device = ["Safari on iPhone", "MyApp/2.4 (iPad; iOS 18.1)", "Chrome on macOS"][index % 3]
            ip = "203.0.113.\(index % 250)"
        }
    }
}
