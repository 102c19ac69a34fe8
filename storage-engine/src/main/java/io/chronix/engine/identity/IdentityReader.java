package io.chronix.engine.identity;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.CRC32C;

/** Reads a namespace directory's {@code IDENTITY}; refuses a file it did not write with a typed error. */
public final class IdentityReader {

    private IdentityReader() {
    }

    /**
     * The directory's identity; empty if it has no {@code IDENTITY} file.
     *
     * @throws CorruptFileException              wrong length, magic, reserved bytes or checksum
     * @throws UnsupportedFormatVersionException another version
     */
    public static Optional<NamespaceIdentity> read(FileIO io, Path dir) throws IOException {
        Path file = dir.resolve(IdentityFormat.FILE_NAME);
        if (!io.exists(file)) {
            return Optional.empty();
        }
        try (FileIO.ReadableFile f = io.openRead(file)) {
            long size = f.size();
            if (size != IdentityFormat.LENGTH) {
                throw new CorruptFileException(file, Math.min(size, IdentityFormat.LENGTH),
                        "identity file is " + size + " bytes, expected " + IdentityFormat.LENGTH);
            }
            ByteBuffer b = ByteBuffer.allocate(IdentityFormat.LENGTH);
            while (b.hasRemaining()) {
                if (f.read(b, b.position()) < 0) {
                    throw new CorruptFileException(file, b.position(), "identity file ends early");
                }
            }
            return Optional.of(decode(file, b));
        }
    }

    static NamespaceIdentity decode(Path file, ByteBuffer b) {
        if (b.getInt(IdentityFormat.MAGIC_OFFSET) != IdentityFormat.MAGIC) {
            throw new CorruptFileException(file, IdentityFormat.MAGIC_OFFSET, "not an identity file (bad magic)");
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, IdentityFormat.CRC_OFFSET);
        if ((int) crc.getValue() != b.getInt(IdentityFormat.CRC_OFFSET)) {
            throw new CorruptFileException(file, IdentityFormat.CRC_OFFSET, "identity checksum mismatch");
        }
        byte version = b.get(IdentityFormat.VERSION_OFFSET);
        if (version != IdentityFormat.VERSION) {
            throw new UnsupportedFormatVersionException(file, "identity", version, IdentityFormat.VERSION);
        }
        for (int i = 0; i < 3; i++) {
            if (b.get(IdentityFormat.RESERVED_OFFSET + i) != 0) {
                throw new CorruptFileException(file, IdentityFormat.RESERVED_OFFSET + i, "reserved byte is not zero");
            }
        }
        long id = b.getLong(IdentityFormat.NAMESPACE_ID_OFFSET);
        if (id <= 0) {
            throw new CorruptFileException(file, IdentityFormat.NAMESPACE_ID_OFFSET, "namespace id is not positive");
        }
        UUID owner = new UUID(b.getLong(IdentityFormat.OWNER_OFFSET), b.getLong(IdentityFormat.OWNER_OFFSET + Long.BYTES));
        return new NamespaceIdentity(id, owner, b.getLong(IdentityFormat.CREATED_AT_OFFSET));
    }
}
