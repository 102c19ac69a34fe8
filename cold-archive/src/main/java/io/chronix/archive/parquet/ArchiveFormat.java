package io.chronix.archive.parquet;

/**
 * Constants of the archive's public layout ({@code docs/format/archive.md}): object keys
 * {@code ns_{namespace id}/shard_{shard id}/seg_{nanos}_{counter}.parquet}; one Parquet file per
 * archived segment, one measurement per file; footer key-value metadata below.
 */
public final class ArchiveFormat {

    /** The layout version written in {@link #KEY_FORMAT}; a reader refuses another. */
    public static final String VERSION = "1";
    public static final String KEY_FORMAT = "chronix.format";
    public static final String KEY_MEASUREMENT = "chronix.measurement";
    public static final String KEY_NAMESPACE = "chronix.namespace";
    public static final String KEY_SHARD = "chronix.shard";
    public static final String KEY_SEGMENT_ID = "chronix.segment_id";
    /** Comma-separated kinds in column order: {@code time}, then {@code tag} or {@code field} per column. */
    public static final String KEY_COLUMN_KINDS = "chronix.column_kinds";
    public static final String KEY_MIN_TIME = "chronix.min_time";
    public static final String KEY_MAX_TIME = "chronix.max_time";

    /** Rows per row group: DuckDB's own default, about 1 MB per numeric column chunk. */
    public static final int ROW_GROUP_ROWS = 122_880;

    private ArchiveFormat() {
    }
}
