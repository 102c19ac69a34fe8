package io.chronix.engine.summary;

/**
 * Constants of the {@code .summary} file (one per segment, beside its {@code .csx}). Byte by byte:
 * {@code docs/format/summary.md}. All integers little-endian.
 *
 * <pre>
 * header  magic "CXSU" | version u8 | 3 reserved zero bytes | segment CRC u32 | body length u32
 * body    plain length u32 | one Zstandard frame that decompresses to exactly that many bytes of:
 * plain   measurement | tag count u16, names | field count u16, (name, type u8) | series count u32,
 *         per series: tag values (i32 length, -1 = absent, UTF-8) | rows i64 | min time i64 | max time i64 |
 *                     per field: count i64, and if count &gt; 0: first time i64 | last time i64 | first 8 |
 *                     last 8 | min 8 | max 8 | sum 16
 * footer  CRC-32C u32 of header and body
 * </pre>
 */
public final class SummaryFormat {

    private SummaryFormat() {
    }

    public static final String FORMAT_NAME = "segment summary";
    public static final byte[] MAGIC = {'C', 'X', 'S', 'U'};
    /** 2: the body is Zstandard-compressed (version 1 stored it plain, 5–8× larger). */
    public static final int VERSION = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    public static final int RESERVED_OFFSET = VERSION_OFFSET + 1;
    public static final int SEGMENT_CRC_OFFSET = RESERVED_OFFSET + 3;
    public static final int BODY_LENGTH_OFFSET = SEGMENT_CRC_OFFSET + Integer.BYTES;
    public static final int HEADER_SIZE = BODY_LENGTH_OFFSET + Integer.BYTES;
    public static final int FOOTER_SIZE = Integer.BYTES;
    /** The body starts with the plain (decompressed) length. */
    public static final int PLAIN_LENGTH_SIZE = Integer.BYTES;
    /**
     * Zstandard level of the body. The values are 8-byte words of small integers and near-equal
     * doubles, which compress 5–8× at level 3 (TSBS data, 100 series × 10 fields: 84.6 KB → 10.3 KB).
     */
    public static final int ZSTD_LEVEL = 3;

    /** Field type codes. */
    public static final int TYPE_FLOAT = 0;
    public static final int TYPE_INTEGER = 1;
    public static final int TYPE_UNSIGNED = 2;

    /** A tag value length meaning "the series has no such tag". */
    public static final int ABSENT = -1;

    /** Bytes of one field entry with values: count, two times, first, last, min, max (8 each) and the 16-byte sum. */
    public static final int FIELD_ENTRY_SIZE = 7 * Long.BYTES + 2 * Long.BYTES;
}
