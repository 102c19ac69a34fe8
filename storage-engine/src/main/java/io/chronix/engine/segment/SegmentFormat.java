package io.chronix.engine.segment;

import java.nio.charset.StandardCharsets;

/**
 * Every constant of the {@code .csx} segment format; {@code docs/format/segment.md} is the
 * byte-by-byte page. All integers little-endian.
 *
 * <pre>
 * file      := header | row group* | metadata | footer
 * header    := magic "CXSG" | version u16 | flags u16 | min_time i64 | max_time i64 | row_count u64
 *              | column_count u32 | series_count u32 | max_wal_sequence u64             (48 bytes)
 * row group := per column: block payload (encoded, maybe compressed) | validity bitmap (only if nulls)
 * metadata  := measurement | column def* | row group meta* | series* | zstd dictionary  (binary, see page)
 * footer    := metadata_offset u64 | row_group_count u32 | crc32c u32 | magic "CXSG"    (20 bytes)
 * </pre>
 *
 * The footer's CRC-32C covers every byte before itself: header, data, metadata and the footer's own
 * {@code metadata_offset} and {@code row_group_count} (so a flipped offset cannot point the reader
 * at plausible garbage that the structure checks might miss). Each
 * block's {@code block_crc} covers its stored payload (not the bitmap), checked on every read. The
 * reader accepts versions {@link #MIN_READ_VERSION}..{@link #VERSION} (each adds encodings, no
 * other byte changed) and refuses any other with a typed error.
 */
public final class SegmentFormat {

    public static final String FILE_SUFFIX = ".csx";
    public static final String TMP_SUFFIX = ".csx.tmp";
    public static final byte[] MAGIC = "CXSG".getBytes(StandardCharsets.US_ASCII);
    /** The version the writer writes. */
    public static final int VERSION = 2;
    /** The oldest version the reader reads: version 1 is version 2 without {@code alp-rd} blocks. */
    public static final int MIN_READ_VERSION = 1;
    /** The first version whose float blocks may be {@code alp-rd} ({@code Encodings.ALP_RD}). */
    public static final int VERSION_ALP_RD = 2;

    // header
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    public static final int FLAGS_OFFSET = VERSION_OFFSET + Short.BYTES;
    public static final int MIN_TIME_OFFSET = FLAGS_OFFSET + Short.BYTES;
    public static final int MAX_TIME_OFFSET = MIN_TIME_OFFSET + Long.BYTES;
    public static final int ROW_COUNT_OFFSET = MAX_TIME_OFFSET + Long.BYTES;
    public static final int COLUMN_COUNT_OFFSET = ROW_COUNT_OFFSET + Long.BYTES;
    public static final int SERIES_COUNT_OFFSET = COLUMN_COUNT_OFFSET + Integer.BYTES;
    public static final int MAX_WAL_SEQUENCE_OFFSET = SERIES_COUNT_OFFSET + Integer.BYTES;
    public static final int HEADER_SIZE = MAX_WAL_SEQUENCE_OFFSET + Long.BYTES;

    /** Header flag: rows are laid out series by series (always set by this writer). */
    public static final int FLAG_SERIES_ORDER = 1;
    /** Flags this version defines; a reader refuses any other bit. */
    public static final int KNOWN_FLAGS = FLAG_SERIES_ORDER;

    // footer, offsets from the footer's start
    public static final int FOOTER_METADATA_OFFSET = 0;
    public static final int FOOTER_ROW_GROUP_COUNT_OFFSET = FOOTER_METADATA_OFFSET + Long.BYTES;
    public static final int FOOTER_CRC_OFFSET = FOOTER_ROW_GROUP_COUNT_OFFSET + Integer.BYTES;
    public static final int FOOTER_MAGIC_OFFSET = FOOTER_CRC_OFFSET + Integer.BYTES;
    public static final int FOOTER_SIZE = FOOTER_MAGIC_OFFSET + 4;
    /** Bytes of the footer the CRC covers. */
    public static final int FOOTER_CRC_COVERED = FOOTER_CRC_OFFSET;

    /** A floor for the file size: header plus footer (real metadata is never empty). */
    public static final int MIN_FILE_SIZE = HEADER_SIZE + FOOTER_SIZE;

    // column definition: role | type | name (u16 length + UTF-8) | sort rank | stats
    public static final int ROLE_TIME = 0;
    public static final int ROLE_TAG = 1;
    public static final int ROLE_FIELD = 2;
    /** Type byte of the time and tag columns (fields carry their {@code FieldType} code). */
    public static final int TYPE_NONE = 0xFF;
    /** Sort rank of a column that is not a tag. */
    public static final int NO_SORT_RANK = 0xFF;
    public static final int MAX_NAME_BYTES = 0xFFFF;

    // column statistics, 76 bytes
    public static final int STATS_FLAGS_OFFSET = 0;
    public static final int STATS_KIND_OFFSET = STATS_FLAGS_OFFSET + 1;
    public static final int STATS_RESERVED_OFFSET = STATS_KIND_OFFSET + 1;
    public static final int STATS_MIN_OFFSET = STATS_RESERVED_OFFSET + 2;
    public static final int STATS_MAX_OFFSET = STATS_MIN_OFFSET + Long.BYTES;
    public static final int STATS_NULL_COUNT_OFFSET = STATS_MAX_OFFSET + Long.BYTES;
    public static final int STATS_VALUE_COUNT_OFFSET = STATS_NULL_COUNT_OFFSET + Long.BYTES;
    public static final int STATS_SUM_OFFSET = STATS_VALUE_COUNT_OFFSET + Long.BYTES;
    public static final int STATS_SUM128_HIGH_OFFSET = STATS_SUM_OFFSET + Double.BYTES;
    public static final int STATS_SUM128_LOW_OFFSET = STATS_SUM128_HIGH_OFFSET + Long.BYTES;
    public static final int STATS_DISTINCT_OFFSET = STATS_SUM128_LOW_OFFSET + Long.BYTES;
    public static final int STATS_NAN_COUNT_OFFSET = STATS_DISTINCT_OFFSET + Long.BYTES;
    public static final int STATS_TRAILER_OFFSET = STATS_NAN_COUNT_OFFSET + Integer.BYTES;
    public static final int COLUMN_STATS_SIZE = STATS_TRAILER_OFFSET + Integer.BYTES;

    // row group meta: first_row u64 | row_count u32 | min_time i64 | max_time i64 | block meta per column
    public static final int RG_FIRST_ROW_OFFSET = 0;
    public static final int RG_ROW_COUNT_OFFSET = RG_FIRST_ROW_OFFSET + Long.BYTES;
    public static final int RG_MIN_TIME_OFFSET = RG_ROW_COUNT_OFFSET + Integer.BYTES;
    public static final int RG_MAX_TIME_OFFSET = RG_MIN_TIME_OFFSET + Long.BYTES;
    public static final int ROW_GROUP_META_SIZE = RG_MAX_TIME_OFFSET + Long.BYTES;

    // column block meta
    public static final int BLOCK_OFFSET_OFFSET = 0;
    public static final int BLOCK_STORED_LENGTH_OFFSET = BLOCK_OFFSET_OFFSET + Long.BYTES;
    public static final int BLOCK_UNCOMPRESSED_LENGTH_OFFSET = BLOCK_STORED_LENGTH_OFFSET + Integer.BYTES;
    public static final int BLOCK_VALIDITY_OFFSET_OFFSET = BLOCK_UNCOMPRESSED_LENGTH_OFFSET + Integer.BYTES;
    public static final int BLOCK_VALIDITY_LENGTH_OFFSET = BLOCK_VALIDITY_OFFSET_OFFSET + Long.BYTES;
    public static final int BLOCK_VALUE_COUNT_OFFSET = BLOCK_VALIDITY_LENGTH_OFFSET + Integer.BYTES;
    public static final int BLOCK_NULL_COUNT_OFFSET = BLOCK_VALUE_COUNT_OFFSET + Integer.BYTES;
    public static final int BLOCK_ENCODING_OFFSET = BLOCK_NULL_COUNT_OFFSET + Integer.BYTES;
    public static final int BLOCK_COMPRESSION_OFFSET = BLOCK_ENCODING_OFFSET + 1;
    public static final int BLOCK_CRC_OFFSET = BLOCK_COMPRESSION_OFFSET + 1;
    public static final int BLOCK_META_SIZE = BLOCK_CRC_OFFSET + Integer.BYTES;

    // series entry: first_row u64 | row_count u32 | min_time i64 | max_time i64
    public static final int SERIES_FIRST_ROW_OFFSET = 0;
    public static final int SERIES_ROW_COUNT_OFFSET = SERIES_FIRST_ROW_OFFSET + Long.BYTES;
    public static final int SERIES_MIN_TIME_OFFSET = SERIES_ROW_COUNT_OFFSET + Integer.BYTES;
    public static final int SERIES_MAX_TIME_OFFSET = SERIES_MIN_TIME_OFFSET + Long.BYTES;
    public static final int SERIES_ENTRY_SIZE = SERIES_MAX_TIME_OFFSET + Long.BYTES;

    // block compression codecs
    public static final int COMPRESSION_NONE = 0;
    public static final int COMPRESSION_LZ4 = 1;
    public static final int COMPRESSION_ZSTD = 2;
    public static final int COMPRESSION_ZSTD_DICT = 3;

    /** Compression is skipped for a block whose encoding already shrank it this many times. */
    public static final int SKIP_COMPRESSION_RATIO = 8;
    /** Writer guard: a block to compress must fit a u32 length (4 GiB). */
    public static final long MAX_BLOCK_SIZE = 4L * 1024 * 1024 * 1024;
    /** Reader guard: a block never decompresses to more than this (256 MiB). */
    public static final int MAX_UNCOMPRESSED_SIZE = 256 * 1024 * 1024;
    /** Reader guard: the metadata region is never larger than this (256 MiB). */
    public static final int MAX_METADATA_SIZE = 256 * 1024 * 1024;

    // Zstd dictionary training (seed: first row group's blocks; >= 8 samples and >= 16 KiB; <= 110 KiB)
    public static final int DICT_MIN_SAMPLES = 8;
    public static final int DICT_MIN_SAMPLE_BYTES = 16 * 1024;
    public static final int DICT_MAX_SIZE = 110 * 1024;

    public static final int DEFAULT_ROW_GROUP_ROWS = 65_536;

    private SegmentFormat() {
    }

    public static String compressionName(int codec) {
        return switch (codec) {
            case COMPRESSION_NONE -> "none";
            case COMPRESSION_LZ4 -> "lz4";
            case COMPRESSION_ZSTD -> "zstd";
            case COMPRESSION_ZSTD_DICT -> "zstd+dict";
            default -> "unknown(" + codec + ")";
        };
    }
}
