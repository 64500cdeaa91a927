import Foundation
import GatehouseServerSupport

/// The named, ordered schema migrations: one list for both databases. Where their types differ
/// the SQL says `{real}`, `{bigint}`, `{serial}` or `{unlogged}` (and a statement for PostgreSQL
/// alone starts with `{postgres}`, one for SQLite alone with `{sqlite}`), and ``statements(of:for:)``
/// writes each database's word. Append only; never edit one that has shipped.
package enum Migrations {
    package static let all: [(name: String, statements: [String])] = [
        (
            "0001_initial",
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT UNIQUE,
                    encrypted_password TEXT,
                    email_confirmed_at {real},
                    confirmation_sent_at {real},
                    recovery_sent_at {real},
                    last_sign_in_at {real},
                    raw_app_meta_data TEXT NOT NULL DEFAULT '{}',
                    raw_user_meta_data TEXT NOT NULL DEFAULT '{}',
                    is_anonymous INTEGER NOT NULL DEFAULT 0,
                    banned_until {real},
                    role TEXT NOT NULL DEFAULT 'authenticated',
                    created_at {real} NOT NULL,
                    updated_at {real} NOT NULL
                )
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    salt TEXT NOT NULL,
                    counter {bigint} NOT NULL,
                    created_at {real} NOT NULL,
                    refreshed_at {real} NOT NULL,
                    rotated_at {real},
                    amr TEXT NOT NULL DEFAULT '[]'
                )
                """,
                "CREATE INDEX sessions_user_id ON sessions(user_id)",
                """
                CREATE TABLE one_time_codes (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL CHECK (purpose IN ('signup', 'email', 'recovery', 'email_change', 'reauthentication', 'invite')),
                    code_hash TEXT NOT NULL,
                    link_hash TEXT NOT NULL UNIQUE,
                    email TEXT NOT NULL,
                    expires_at {real} NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    created_at {real} NOT NULL,
                    PRIMARY KEY (user_id, purpose)
                )
                """,
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    algorithm TEXT NOT NULL,
                    private_pem TEXT NOT NULL,
                    created_at {real} NOT NULL
                )
                """,
                """
                CREATE TABLE audit_log (
                    id {serial},
                    at {real} NOT NULL,
                    action TEXT NOT NULL,
                    actor_id TEXT,
                    ip TEXT,
                    detail TEXT
                )
                """,
            ]
        ),
        (
            "0002_identities",
            [
                """
                CREATE TABLE identities (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    provider TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    email TEXT,
                    identity_data TEXT NOT NULL DEFAULT '{}',
                    last_sign_in_at {real},
                    created_at {real} NOT NULL,
                    updated_at {real} NOT NULL,
                    UNIQUE (provider, provider_id)
                )
                """,
                "CREATE INDEX identities_user_id ON identities(user_id)",
                """
                CREATE TABLE used_nonces (
                    provider TEXT NOT NULL,
                    nonce_hash TEXT NOT NULL,
                    expires_at {real} NOT NULL,
                    PRIMARY KEY (provider, nonce_hash)
                )
                """,
            ]
        ),
        (
            "0003_rate_limits",
            [
                // Shared by every PostgreSQL instance (SQLite counts in memory; the table stays empty).
                // UNLOGGED on PostgreSQL: a counter lost in a crash costs nothing.
                """
                CREATE {unlogged}TABLE rate_limits (
                    id TEXT PRIMARY KEY,
                    window_start {real} NOT NULL,
                    count INTEGER NOT NULL
                )
                """
            ]
        ),
        (
            // A pending address change lives on the user (`new_email`); a sign-up's unproven
            // password remembers the code sent with it; the current address gets its own code.
            "0004_address_ownership",
            [
                "ALTER TABLE users ADD COLUMN new_email TEXT",
                "ALTER TABLE users ADD COLUMN email_change_sent_at {real}",
                "ALTER TABLE users ADD COLUMN password_code TEXT",
                """
                CREATE TABLE one_time_codes_v4 (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL CHECK (purpose IN ('signup', 'email', 'recovery', 'email_change', 'email_change_current', 'reauthentication', 'invite')),
                    code_hash TEXT NOT NULL,
                    link_hash TEXT NOT NULL UNIQUE,
                    email TEXT NOT NULL,
                    expires_at {real} NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    created_at {real} NOT NULL,
                    PRIMARY KEY (user_id, purpose)
                )
                """,
                """
                INSERT INTO one_time_codes_v4 (user_id, purpose, code_hash, link_hash, email, expires_at, attempts, created_at)
                SELECT user_id, purpose, code_hash, link_hash, email, expires_at, attempts, created_at FROM one_time_codes
                """,
                "DROP TABLE one_time_codes",
                "ALTER TABLE one_time_codes_v4 RENAME TO one_time_codes",
                "CREATE INDEX one_time_codes_email ON one_time_codes(email)",
            ]
        ),
        (
            "0005_revoked_tokens",
            [
                // Admin tokens ended before their `exp` (`gatehouse-server admin-token --revoke`).
                """
                CREATE TABLE revoked_tokens (
                    jti TEXT PRIMARY KEY,
                    revoked_at {real} NOT NULL
                )
                """
            ]
        ),
        (
            // Second factors (authenticator apps), their challenges, and each session's assurance
            // level with the factor it relied on (`protocol.md` §4.4).
            "0006_mfa",
            [
                """
                CREATE TABLE mfa_factors (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    friendly_name TEXT NOT NULL DEFAULT '',
                    factor_type TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('unverified', 'verified')),
                    secret TEXT NOT NULL,
                    last_used_step {bigint},
                    created_at {real} NOT NULL,
                    updated_at {real} NOT NULL,
                    last_challenged_at {real}
                )
                """,
                "CREATE INDEX mfa_factors_user_id ON mfa_factors(user_id)",
                "CREATE UNIQUE INDEX mfa_factors_user_friendly_name ON mfa_factors(user_id, friendly_name) WHERE friendly_name <> ''",
                """
                CREATE TABLE mfa_challenges (
                    id TEXT PRIMARY KEY,
                    factor_id TEXT NOT NULL REFERENCES mfa_factors(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    ip TEXT NOT NULL,
                    created_at {real} NOT NULL,
                    expires_at {real} NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0
                )
                """,
                "CREATE INDEX mfa_challenges_factor_id ON mfa_challenges(factor_id)",
                "ALTER TABLE sessions ADD COLUMN aal TEXT NOT NULL DEFAULT 'aal1'",
                "ALTER TABLE sessions ADD COLUMN factor_id TEXT",
            ]
        ),
        (
            // Where each session signed in and last refreshed from, and its device label
            // (`GET /user/sessions`); the sweep of ended sessions reads both times by index.
            "0007_session_devices",
            [
                "ALTER TABLE sessions ADD COLUMN device TEXT",
                "ALTER TABLE sessions ADD COLUMN created_ip TEXT",
                "ALTER TABLE sessions ADD COLUMN refreshed_ip TEXT",
                "CREATE INDEX sessions_created_at ON sessions(created_at)",
                "CREATE INDEX sessions_refreshed_at ON sessions(refreshed_at)",
            ]
        ),
        (
            // Passkeys (WebAuthn credentials) and the single-use challenges of their ceremonies.
            "0008_passkeys",
            [
                """
                CREATE TABLE webauthn_credentials (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    credential_id TEXT NOT NULL UNIQUE,
                    public_key TEXT NOT NULL,
                    algorithm INTEGER NOT NULL,
                    attestation_type TEXT NOT NULL,
                    aaguid TEXT NOT NULL,
                    sign_count {bigint} NOT NULL,
                    transports TEXT NOT NULL,
                    backup_eligible INTEGER NOT NULL,
                    backed_up INTEGER NOT NULL,
                    friendly_name TEXT NOT NULL,
                    created_at {real} NOT NULL,
                    updated_at {real} NOT NULL,
                    last_used_at {real}
                )
                """,
                "CREATE INDEX webauthn_credentials_user_id ON webauthn_credentials(user_id)",
                """
                CREATE TABLE webauthn_challenges (
                    id TEXT PRIMARY KEY,
                    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('registration', 'authentication')),
                    challenge TEXT NOT NULL,
                    created_at {real} NOT NULL,
                    expires_at {real} NOT NULL
                )
                """,
                "CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges(expires_at)",
            ]
        ),
        (
            // What the background sweep (``StorageSweep``) deletes by age, read by index; and
            // what the index tests (`StatementPlanTests`) found read by a whole-table scan:
            // sessions by factor (a factor's removal), a user's MFA challenges, the admin API's
            // pages of users by creation time, and the passkey challenges a user's deletion
            // cascades to.
            "0011_retention",
            [
                "CREATE INDEX one_time_codes_expires_at ON one_time_codes(expires_at)",
                "CREATE INDEX used_nonces_expires_at ON used_nonces(expires_at)",
                "CREATE INDEX mfa_challenges_user_id ON mfa_challenges(user_id, expires_at)",
                "CREATE INDEX mfa_challenges_expires_at ON mfa_challenges(expires_at)",
                "CREATE INDEX rate_limits_window_start ON rate_limits(window_start)",
                "CREATE INDEX audit_log_at ON audit_log(at)",
                "CREATE INDEX sessions_factor_id ON sessions(factor_id) WHERE factor_id IS NOT NULL",
                "CREATE INDEX users_created_at ON users(created_at, id)",
                "CREATE INDEX webauthn_challenges_user_id ON webauthn_challenges(user_id)",
            ]
        ),
        (
            // Apple's refresh tokens (sealed under the server secret), one per Apple identity, and
            // the outbox of their revocations: written in the transaction that deletes the user or
            // identity, so it outlives them (no foreign key) until Apple confirms.
            "0010_apple_tokens",
            [
                """
                CREATE TABLE apple_tokens (
                    identity_id TEXT PRIMARY KEY REFERENCES identities(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    refresh_token TEXT NOT NULL,
                    created_at {real} NOT NULL,
                    updated_at {real} NOT NULL
                )
                """,
                """
                CREATE TABLE apple_revocations (
                    identity_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    refresh_token TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at {real} NOT NULL,
                    created_at {real} NOT NULL,
                    last_error TEXT
                )
                """,
                "CREATE INDEX apple_revocations_next_attempt_at ON apple_revocations(next_attempt_at)",
            ]
        ),
        (
            // A rate-limit window knows when it closes, so the sweep deletes it then rather than a
            // day after it opened (the longest window of any bucket): the table of a server that
            // sees many one-off clients stops growing at what its windows hold. Windows written
            // before this migration close a day after they opened, as the old sweep assumed.
            "0012_rate_limit_window_end",
            [
                "ALTER TABLE rate_limits ADD COLUMN window_end {real} NOT NULL DEFAULT 0",
                "UPDATE rate_limits SET window_end = window_start + 86400",
                "DROP INDEX rate_limits_window_start",
                "CREATE INDEX rate_limits_window_end ON rate_limits(window_end)",
            ]
        ),
        (
            // The sweep of idle sessions reads the day of the last refresh by index, no longer
            // the exact time, which every refresh changes (``SessionRefreshDay``): on PostgreSQL
            // a refresh then updates the row alone (HOT) instead of adding an entry to each of
            // the table's indexes. Existing rows take their exact time, which sweeps them alike
            // (the day column is only ever compared with the start of a day).
            //
            // A HOT update needs room on the row's own page: PostgreSQL fills new pages of
            // sessions to 90 % and keeps the rest for the next versions of their rows.
            "0013_sessions_refreshed_day",
            [
                "ALTER TABLE sessions ADD COLUMN refreshed_day {real} NOT NULL DEFAULT 0",
                "UPDATE sessions SET refreshed_day = refreshed_at",
                "DROP INDEX sessions_refreshed_at",
                "CREATE INDEX sessions_refreshed_day ON sessions(refreshed_day)",
                "{postgres}ALTER TABLE sessions SET (fillfactor = 90)",
            ]
        ),
        (
            // The session that enrolled each factor: a factor not verified yet may be verified
            // only from it (`security.md` SA-2), so a password alone cannot plant a factor for
            // later. Factors enrolled before have none and, unverified, lapse within 300 s.
            "0014_factor_enrolling_session",
            [
                "ALTER TABLE mfa_factors ADD COLUMN enrolled_session_id TEXT"
            ]
        ),
        (
            // The mail outbox: a mail is a row written in the transaction of the code or notice it
            // carries, with its content (the body sealed under the server secret), and the sender
            // (``MailSender``) delivers it from here, in `id` order per address, with retries. A
            // mail carrying a code names the code (user, purpose, link hash), so that it is not
            // sent once a newer code replaced it or it was used or expired.
            "0015_mail_outbox",
            [
                """
                CREATE TABLE mail_outbox (
                    id {serial},
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    user_id TEXT,
                    purpose TEXT,
                    link_hash TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at {real} NOT NULL,
                    created_at {real} NOT NULL,
                    last_error TEXT
                )
                """,
                "CREATE INDEX mail_outbox_recipient ON mail_outbox(recipient, id)",
                "CREATE INDEX mail_outbox_next_attempt_at ON mail_outbox(next_attempt_at)",
            ]
        ),
        (
            // Sign-ins in progress (GoTrue's `flow_state`): a provider's page (`/authorize` →
            // `/callback`) or an e-mailed link sent with a PKCE challenge, until the app exchanges
            // its code (`grant_type=pkce`). Secrets are hashes (`state`, `auth_code`, the e-mailed
            // link's token), the provider’s tokens sealed.
            "0016_flow_states",
            [
                """
                CREATE TABLE flow_states (
                    id TEXT PRIMARY KEY,
                    state_hash TEXT UNIQUE,
                    link_hash TEXT UNIQUE,
                    auth_code_hash TEXT UNIQUE,
                    provider TEXT NOT NULL,
                    authentication_method TEXT NOT NULL,
                    redirect_to TEXT NOT NULL,
                    code_challenge TEXT,
                    code_challenge_method TEXT CHECK (code_challenge_method IN ('s256', 'plain')),
                    provider_verifier TEXT,
                    nonce TEXT,
                    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    linking_user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    linking_session_id TEXT,
                    provider_tokens TEXT,
                    created_at {real} NOT NULL,
                    expires_at {real} NOT NULL
                )
                """,
                "CREATE INDEX flow_states_expires_at ON flow_states(expires_at)",
                "CREATE INDEX flow_states_user_id ON flow_states(user_id)",
                "CREATE INDEX flow_states_linking_user_id ON flow_states(linking_user_id)",
            ]
        ),
        (
            // The admin API's total of users without counting the table (issue 35): triggers
            // keep the number in `user_counts`, in the transaction that inserts or deletes the
            // user, and the total is the sum of its rows. SQLite has one writer and one row.
            // PostgreSQL keeps 64 rows and each backend moves the row of its process id, so that
            // concurrent sign-ups on different connections do not queue on one row's lock until
            // their commits (and a transaction only ever locks its own row: no deadlock).
            "0017_user_counts",
            [
                "CREATE TABLE user_counts (slot INTEGER PRIMARY KEY, n {bigint} NOT NULL)",
                "INSERT INTO user_counts (slot, n) SELECT 0, COUNT(*) FROM users",
                "{postgres}INSERT INTO user_counts (slot, n) SELECT g, 0 FROM generate_series(1, 63) g",
                """
                {sqlite}CREATE TRIGGER users_counted_insert AFTER INSERT ON users
                BEGIN UPDATE user_counts SET n = n + 1 WHERE slot = 0; END
                """,
                """
                {sqlite}CREATE TRIGGER users_counted_delete AFTER DELETE ON users
                BEGIN UPDATE user_counts SET n = n - 1 WHERE slot = 0; END
                """,
                """
                {postgres}CREATE FUNCTION users_counted() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE user_counts SET n = n + CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END
                    WHERE slot = pg_backend_pid() % 64;
                    RETURN NULL;
                END
                $$
                """,
                """
                {postgres}CREATE TRIGGER users_counted AFTER INSERT OR DELETE ON users
                FOR EACH ROW EXECUTE FUNCTION users_counted()
                """,
            ]
        ),
        (
            // The hash parameters of a service users were imported from (Firebase's signer key,
            // salt separator, rounds, memory cost), sealed under the server secret, kept until
            // `gatehouse-server import forget-firebase-key`.
            "0018_import_hash_keys",
            [
                """
                CREATE TABLE import_hash_keys (
                    scheme TEXT PRIMARY KEY,
                    sealed_parameters TEXT NOT NULL,
                    created_at {real} NOT NULL
                )
                """
            ]
        ),
        (
            // The console (issue 37): who holds the operator role, and the console's sign-ins,
            // each bound to the real session row it opened (ending that session, or all of the
            // operator's, ends it). Audit lines name the user an action was done to when an
            // operator acts (`subject_id`); the console reads a user's lines by either column.
            "0019_console",
            [
                """
                CREATE TABLE operators (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    granted_at {real} NOT NULL
                )
                """,
                """
                CREATE TABLE console_sessions (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at {real} NOT NULL,
                    last_seen_at {real} NOT NULL
                )
                """,
                "CREATE INDEX console_sessions_session_id ON console_sessions(session_id)",
                "CREATE INDEX console_sessions_user_id ON console_sessions(user_id)",
                "ALTER TABLE audit_log ADD COLUMN subject_id TEXT",
                "CREATE INDEX audit_log_actor_id ON audit_log(actor_id, id)",
                "CREATE INDEX audit_log_subject_id ON audit_log(subject_id, id)",
                "CREATE INDEX audit_log_action ON audit_log(action, id)",
            ]
        ),
        (
            // The console's audit filter by client address (issue 37) reads the lines of one
            // address newest first, as the actor, subject and action filters do.
            "0020_audit_log_ip",
            ["CREATE INDEX audit_log_ip ON audit_log(ip, id)"]
        ),
    ]

    /// A migration's statements in `dialect`'s SQL.
    package static func statements(of migration: (name: String, statements: [String]), for dialect: SQLDialect) -> [String] {
        let words: [String: String]
        switch dialect {
        case .sqlite:
            words = [
                "{real}": "REAL", "{bigint}": "INTEGER", "{serial}": "INTEGER PRIMARY KEY AUTOINCREMENT",
                "{unlogged}": "",
            ]
        case .postgres:
            words = [
                "{real}": "DOUBLE PRECISION", "{bigint}": "BIGINT",
                "{serial}": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "{unlogged}": "UNLOGGED ",
            ]
        }
        // A statement marked `{postgres}` or `{sqlite}` is that database's alone (a storage
        // parameter, a trigger).
        let markers: [(String, SQLDialect)] = [("{postgres}", .postgres), ("{sqlite}", .sqlite)]
        return migration.statements.compactMap { statement in
            var statement = statement
            for (marker, only) in markers where statement.hasPrefix(marker) {
                guard dialect == only else { return nil }
                statement.removeFirst(marker.count)
            }
            return words.reduce(statement) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
    }
}
