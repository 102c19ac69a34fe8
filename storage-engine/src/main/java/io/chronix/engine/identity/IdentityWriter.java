package io.chronix.engine.identity;

import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Makes a namespace directory and publishes its {@code IDENTITY} in it, durably: the directory is
 * created (never reused: an existing one is {@link FileAlreadyExistsException}), the file written
 * under a temporary name, fsynced, renamed, and both the directory and its parent fsynced — so once
 * {@link #create} returns, a power loss leaves either no directory or one that says whose it is.
 */
public final class IdentityWriter {

    private IdentityWriter() {
    }

    /**
     * @throws FileAlreadyExistsException if {@code dir} exists: a directory belongs to one namespace
     *                                    forever, so it is never taken over
     */
    public static void create(FileIO io, Path dir, NamespaceIdentity identity) throws IOException {
        if (io.exists(dir)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "a namespace directory is never reused");
        }
        io.createDirectories(dir);
        write(io, dir, identity);
        io.syncDirectory(dir.getParent());
    }

    /**
     * Writes {@code IDENTITY} into an existing directory that has none (a directory made before
     * identities existed, adopted by its namespace).
     */
    public static void write(FileIO io, Path dir, NamespaceIdentity identity) throws IOException {
        Path tmp = dir.resolve(IdentityFormat.TEMP_NAME);
        if (io.exists(tmp)) {
            io.delete(tmp); // a crash before the rename left it; nothing ever read it
        }
        try (FileIO.WritableFile f = io.create(tmp)) {
            ByteBuffer b = encode(identity);
            while (b.hasRemaining()) {
                f.write(b);
            }
            f.sync();
        }
        io.rename(tmp, dir.resolve(IdentityFormat.FILE_NAME));
        io.syncDirectory(dir);
    }

    static ByteBuffer encode(NamespaceIdentity identity) {
        ByteBuffer b = ByteBuffer.allocate(IdentityFormat.LENGTH);
        b.putInt(IdentityFormat.MAGIC_OFFSET, IdentityFormat.MAGIC);
        b.put(IdentityFormat.VERSION_OFFSET, IdentityFormat.VERSION);
        b.putLong(IdentityFormat.NAMESPACE_ID_OFFSET, identity.namespaceId());
        b.putLong(IdentityFormat.OWNER_OFFSET, identity.owner().getMostSignificantBits());
        b.putLong(IdentityFormat.OWNER_OFFSET + Long.BYTES, identity.owner().getLeastSignificantBits());
        b.putLong(IdentityFormat.CREATED_AT_OFFSET, identity.createdAtMillis());
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, IdentityFormat.CRC_OFFSET);
        b.putInt(IdentityFormat.CRC_OFFSET, (int) crc.getValue());
        return b;
    }
}
