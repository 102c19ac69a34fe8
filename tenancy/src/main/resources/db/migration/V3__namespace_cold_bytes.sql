-- Of a namespace's stored bytes, how many are archived objects in the cold tier (the rest are hot,
-- on the service's disk). Reported with stored_bytes by the service; 0 until the first report.
ALTER TABLE namespace_usage ADD COLUMN cold_bytes bigint NOT NULL DEFAULT 0 CHECK (cold_bytes >= 0);
