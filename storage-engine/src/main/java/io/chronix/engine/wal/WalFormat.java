package io.chronix.engine.wal;

import java.nio.charset.StandardCharsets;

/**
 * Every constant of the WAL file format; {@code docs/format/wal.md} is the byte-by-byte page.
 *
 * <pre>
 * file   := header record*
 * header := magic "CXWL" (4 bytes) | version u16 LE (= 1)
 * record := crc32c u32 LE | length u32 LE | sequence_no u64 LE | record_type u8 | payload_version u8 | payload (length bytes)
 * </pre>
 *
 * The CRC-32C covers everything after itself: length, sequence, record type, payload version and
 * payload. Sequence numbers start at 1 and grow by one per record across all files; a file is named
 * after the sequence its first record gets. Only the last file of a log may end in a partial record
 * (a torn tail); anything else that fails to read is corruption.
 *
 * <p>A file being appended to may end in preallocated zeros ({@code header record* zero*}): an
 * all-zero frame header at a record boundary, with zeros to the end of the file, is the end of the
 * records (no record has sequence 0); followed by any non-zero byte it is a bad frame.
 *
 * <p>Our one addition to the seed's bytes: bit 7 of {@code record_type} marks a payload stored
 * LZ4-compressed ({@code [uncompressed length u32 LE][LZ4 block]}), for logs opened with compression.
 * Without compression every byte is as the seed states.
 */
public final class WalFormat {

    public static final String FILE_PREFIX = "wal_";
    public static final String FILE_SUFFIX = ".cxwl";
    /** Digits of the starting sequence in a file name, zero-padded so names sort by sequence. */
    public static final int FILE_SEQUENCE_DIGITS = 20;

    public static final byte[] MAGIC = "CXWL".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;

    // file header
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    public static final int HEADER_SIZE = VERSION_OFFSET + Short.BYTES;

    // record frame, offsets from the start of the frame
    public static final int CRC_OFFSET = 0;
    public static final int LENGTH_OFFSET = CRC_OFFSET + Integer.BYTES;
    public static final int SEQUENCE_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    public static final int RECORD_TYPE_OFFSET = SEQUENCE_OFFSET + Long.BYTES;
    public static final int PAYLOAD_VERSION_OFFSET = RECORD_TYPE_OFFSET + Byte.BYTES;
    public static final int PAYLOAD_OFFSET = PAYLOAD_VERSION_OFFSET + Byte.BYTES;
    /** Bytes a frame adds to its payload. */
    public static final int FRAME_OVERHEAD = PAYLOAD_OFFSET;
    /** The CRC covers the frame from here to the end of the payload. */
    public static final int CRC_COVERAGE_OFFSET = LENGTH_OFFSET;

    public static final int PAYLOAD_VERSION = 1;

    /** Bit of {@code record_type} set when the payload is LZ4-compressed; the low bits are the type. */
    public static final int COMPRESSED_FLAG = 0x80;
    public static final int RECORD_TYPE_MASK = 0x7F;
    /** A compressed payload starts with the uncompressed length, then the LZ4 block. */
    public static final int COMPRESSED_LENGTH_SIZE = Integer.BYTES;

    /**
     * Largest payload a writer accepts and a reader believes. A length field above it is damage, not
     * a reason to allocate gigabytes.
     */
    public static final int MAX_PAYLOAD_LENGTH = 64 * 1024 * 1024;

    /** The first sequence number of a new log. */
    public static final long FIRST_SEQUENCE = 1;

    private WalFormat() {
    }

    /** {@code wal_{startSequence:020}.cxwl} */
    public static String fileName(long startSequence) {
        if (startSequence < 0) {
            throw new IllegalArgumentException("negative sequence " + startSequence);
        }
        return FILE_PREFIX + String.format("%0" + FILE_SEQUENCE_DIGITS + "d", startSequence) + FILE_SUFFIX;
    }

    /** True for names that look like a WAL file, well-formed or not. */
    public static boolean isWalFileName(String name) {
        return name.startsWith(FILE_PREFIX) && name.endsWith(FILE_SUFFIX);
    }

    /** The starting sequence in a well-formed WAL file name, or -1 for any other name. */
    public static long startSequenceOf(String name) {
        if (!isWalFileName(name) || name.length() != FILE_PREFIX.length() + FILE_SEQUENCE_DIGITS + FILE_SUFFIX.length()) {
            return -1;
        }
        long seq = 0;
        for (int i = FILE_PREFIX.length(); i < FILE_PREFIX.length() + FILE_SEQUENCE_DIGITS; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            seq = seq * 10 + (c - '0');
            if (seq < 0) {
                return -1;
            }
        }
        return seq;
    }
}
