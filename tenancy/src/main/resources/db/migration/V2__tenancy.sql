-- Tenants, console users, namespaces, API tokens, quotas, usage and the deletion queue.
-- Invariants are held by the database itself: names are checked by CHECK constraints with the
-- same pattern the service enforces, live names are unique through partial unique indexes, and
-- every row points at its tenant through a foreign key.

CREATE TABLE tenants (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text        NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    deleted_at  timestamptz
);
-- a deleted tenant's name may be taken again; its id never is
CREATE UNIQUE INDEX tenants_live_name ON tenants (name) WHERE deleted_at IS NULL;

-- Console logins. The e-mail is the login name, so it is unique across the installation; it is
-- kept in lower case. password_hash is Spring Security's delegating format ({bcrypt}..., {argon2}...).
CREATE TABLE users (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id     uuid        NOT NULL REFERENCES tenants (id),
    email         text        NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    password_hash text        NOT NULL CHECK (password_hash ~ '^\{[a-z0-9_-]+\}'),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (email);
CREATE INDEX users_tenant ON users (tenant_id);

-- The identity id names the namespace's data directory and object-store prefix (ns_<id>/); it is
-- never reused, so a new namespace never sees an old one's leftovers. Durations are milliseconds.
CREATE TABLE namespaces (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id     uuid        NOT NULL REFERENCES tenants (id),
    name          text        NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
    retention_ms  bigint      NOT NULL CHECK (retention_ms > 0),
    cold_after_ms bigint      CHECK (cold_after_ms > 0 AND cold_after_ms <= retention_ms),
    settings      jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(settings) = 'object'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    deleted_at    timestamptz,
    purged_at     timestamptz,
    CHECK (purged_at IS NULL OR deleted_at IS NOT NULL)
);
CREATE UNIQUE INDEX namespaces_live_name ON namespaces (tenant_id, name) WHERE deleted_at IS NULL;

-- Only a SHA-256 digest of the whole token is stored; the token itself is shown once.
CREATE TABLE api_tokens (
    id           text        PRIMARY KEY CHECK (id ~ '^[a-z2-7]{16}$'),
    tenant_id    uuid        NOT NULL REFERENCES tenants (id),
    secret_hash  bytea       NOT NULL UNIQUE CHECK (octet_length(secret_hash) = 32),
    scopes       text[]      NOT NULL CHECK (cardinality(scopes) BETWEEN 1 AND 100),
    description  text        NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_tokens_tenant ON api_tokens (tenant_id, created_at);

-- A NULL column means "the service default" (configuration); a row may be absent altogether.
CREATE TABLE tenant_quotas (
    tenant_id                    uuid    PRIMARY KEY REFERENCES tenants (id),
    max_namespaces               integer CHECK (max_namespaces >= 0),
    max_series                   bigint  CHECK (max_series >= 0),
    max_ingest_points_per_second bigint  CHECK (max_ingest_points_per_second >= 0),
    max_stored_bytes             bigint  CHECK (max_stored_bytes >= 0),
    max_request_bytes            bigint  CHECK (max_request_bytes > 0),
    max_retention_ms             bigint  CHECK (max_retention_ms > 0),
    query_timeout_ms             bigint  CHECK (query_timeout_ms > 0),
    max_concurrent_queries       integer CHECK (max_concurrent_queries >= 0)
);

-- Reported by the service (the data plane); summed per tenant for GET /api/v1/usage.
CREATE TABLE namespace_usage (
    namespace_id   bigint      PRIMARY KEY REFERENCES namespaces (id),
    series         bigint      NOT NULL DEFAULT 0 CHECK (series >= 0),
    stored_bytes   bigint      NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0),
    points_written bigint      NOT NULL DEFAULT 0 CHECK (points_written >= 0),
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Namespaces whose data (engine directory, cold objects) is still to be removed. A row is written
-- in the same transaction that marks the namespace deleted and removed once the data is gone, so
-- the removal survives restarts.
CREATE TABLE pending_deletions (
    namespace_id    bigint      PRIMARY KEY REFERENCES namespaces (id),
    requested_at    timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error      text
);
CREATE INDEX pending_deletions_due ON pending_deletions (next_attempt_at);
