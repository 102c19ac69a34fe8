package io.chronix.engine.identity;

/**
 * The {@code IDENTITY} file, byte by byte ({@code docs/format/identity.md}); all integers big-endian.
 *
 * <pre>
 * offset size field
 *      0    4 magic "CXID"
 *      4    1 version (1)
 *      5    3 reserved, zero
 *      8    8 namespace id (int64)
 *     16   16 owner UUID (most then least significant 64 bits)
 *     32    8 created at (int64, epoch milliseconds)
 *     40    4 CRC32C of bytes 0..39
 * </pre>
 */
public final class IdentityFormat {

    /** The file's name inside a namespace directory. */
    public static final String FILE_NAME = "IDENTITY";
    /** The name it is written under before the rename that publishes it. */
    public static final String TEMP_NAME = "IDENTITY.tmp";

    public static final int MAGIC = 0x43584944; // "CXID"
    public static final byte VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = VERSION_OFFSET + 1;
    public static final int NAMESPACE_ID_OFFSET = RESERVED_OFFSET + 3;
    public static final int OWNER_OFFSET = NAMESPACE_ID_OFFSET + Long.BYTES;
    public static final int CREATED_AT_OFFSET = OWNER_OFFSET + 2 * Long.BYTES;
    public static final int CRC_OFFSET = CREATED_AT_OFFSET + Long.BYTES;
    /** The whole file: a reader refuses any other length. */
    public static final int LENGTH = CRC_OFFSET + Integer.BYTES;

    private IdentityFormat() {
    }
}
