/// The named, ordered schema migrations for PostgreSQL: the same tables and names as
/// ``SQLiteMigrations``, in PostgreSQL's types. Append only; never edit one that has shipped.
enum PostgresMigrations {
    static let all: [(name: String, statements: [String])] = [
        (
            "0001_initial",
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT UNIQUE,
                    encrypted_password TEXT,
                    email_confirmed_at DOUBLE PRECISION,
                    confirmation_sent_at DOUBLE PRECISION,
                    recovery_sent_at DOUBLE PRECISION,
                    last_sign_in_at DOUBLE PRECISION,
                    raw_app_meta_data TEXT NOT NULL DEFAULT '{}',
                    raw_user_meta_data TEXT NOT NULL DEFAULT '{}',
                    is_anonymous INTEGER NOT NULL DEFAULT 0,
                    banned_until DOUBLE PRECISION,
                    role TEXT NOT NULL DEFAULT 'authenticated',
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    salt TEXT NOT NULL,
                    counter BIGINT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    refreshed_at DOUBLE PRECISION NOT NULL,
                    rotated_at DOUBLE PRECISION,
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
                    expires_at DOUBLE PRECISION NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    created_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, purpose)
                )
                """,
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    algorithm TEXT NOT NULL,
                    private_pem TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE audit_log (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    at DOUBLE PRECISION NOT NULL,
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
                    last_sign_in_at DOUBLE PRECISION,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL,
                    UNIQUE (provider, provider_id)
                )
                """,
                "CREATE INDEX identities_user_id ON identities(user_id)",
                """
                CREATE TABLE used_nonces (
                    provider TEXT NOT NULL,
                    nonce_hash TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (provider, nonce_hash)
                )
                """,
            ]
        ),
        (
            "0003_rate_limits",
            [
                // Shared by every instance; UNLOGGED: a counter lost in a crash costs nothing.
                """
                CREATE UNLOGGED TABLE rate_limits (
                    id TEXT PRIMARY KEY,
                    window_start DOUBLE PRECISION NOT NULL,
                    count INTEGER NOT NULL
                )
                """
            ]
        ),
    ]
}
