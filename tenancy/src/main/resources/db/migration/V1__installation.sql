-- One row naming this installation: a stable id that survives restarts and tells operators which
-- database a service is attached to (two services on one database share it on purpose).
CREATE TABLE installation (
    id          uuid        PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    singleton   boolean     NOT NULL DEFAULT true UNIQUE CHECK (singleton)
);

INSERT INTO installation (id) VALUES (gen_random_uuid());
