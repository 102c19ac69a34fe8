package io.chronix.engine.segment;

import java.nio.charset.StandardCharsets;

/**
 * Every constant of the {@code .series} sidecar; {@code docs/format/series.md} is the page. The
 * sidecar is derived data: the series keys of one segment, rebuilt from the segment when missing or
 * damaged. Little-endian.
 *
 * <pre>
 * file   := magic "CXSS" | version u16 | reserved u16 | segment_crc u32 | body_length u32 | body | crc32c u32
 * body   := version 2: plain_length u32 | one Zstandard frame of exactly plain_length bytes of plain
 *           version 1: plain, stored as it is
 * plain  := measurement (u16 len + UTF-8) | tag_count u16 | tag name* (u16 len + UTF-8, sort order)
 *           | series_count u32 | series*
 * series := first_row u64 | row_count u32 | min_time i64 | max_time i64 | per tag: value (u16 len + UTF-8, 0xFFFF = absent)
 * </pre>
 * {@code segment_crc} is the whole-file CRC of the segment it describes, so a sidecar left beside
 * another segment of the same name is recognised as stale. The trailing CRC-32C covers everything
 * before it.
 */
public final class SeriesFormat {

    public static final String FILE_SUFFIX = ".series";
    public static final byte[] MAGIC = "CXSS".getBytes(StandardCharsets.US_ASCII);
    /** What the writer writes: 2, the plain body compressed with Zstandard (about 5x smaller on TSBS series). */
    public static final int VERSION = 2;
    /** The first version, the plain body stored uncompressed; still read, never written. */
    public static final int VERSION_PLAIN = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    public static final int RESERVED_OFFSET = VERSION_OFFSET + Short.BYTES;
    public static final int SEGMENT_CRC_OFFSET = RESERVED_OFFSET + Short.BYTES;
    public static final int BODY_LENGTH_OFFSET = SEGMENT_CRC_OFFSET + Integer.BYTES;
    public static final int HEADER_SIZE = BODY_LENGTH_OFFSET + Integer.BYTES;
    public static final int TRAILER_SIZE = Integer.BYTES;
    /** A version-2 body starts with the plain (decompressed) length. */
    public static final int PLAIN_LENGTH_SIZE = Integer.BYTES;
    /**
     * Zstandard level of a version-2 body. The plain body repeats itself (tag values shared by many
     * series, row counts and time bounds that differ in a few low bytes): a TSBS segment of 100
     * series, 10.8 KB as version 1, stores in 2.0 KB at level 3 — one 4 KiB filesystem block instead
     * of three. Levels 9 and 19 were 12 % and 15 % smaller on a 100-series test sample, which
     * changes no block count here and costs more CPU on every flush and compaction.
     */
    public static final int ZSTD_LEVEL = 3;

    /** Length marker of an absent tag value. */
    public static final int ABSENT = 0xFFFF;
    /** Longest tag value a sidecar can hold (one below the absent marker). */
    public static final int MAX_VALUE_BYTES = 0xFFFE;
    /** Bound on the stored body and, in version 2, on the plain body it decompresses to. */
    public static final int MAX_BODY_LENGTH = 256 * 1024 * 1024;

    private SeriesFormat() {
    }
}
