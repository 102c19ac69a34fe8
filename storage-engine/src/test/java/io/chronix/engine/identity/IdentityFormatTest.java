package io.chronix.engine.identity;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.EngineException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.UUID;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdentityFormatTest {

    static final NamespaceIdentity ID = new NamespaceIdentity(0x4000_0000_0000_0123L,
            UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"), 1_765_000_000_000L);

    @TempDir Path tmp;

    @Test
    void createdDirectoryReadsBackItsIdentity() throws IOException {
        Path dir = tmp.resolve("namespaces").resolve("42");
        Files.createDirectories(dir.getParent());
        IdentityWriter.create(NioFileIO.INSTANCE, dir, ID);
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir)).contains(ID);
        assertThat(Files.exists(dir.resolve(IdentityFormat.TEMP_NAME))).isFalse();
        assertThat(Files.size(dir.resolve(IdentityFormat.FILE_NAME))).isEqualTo(IdentityFormat.LENGTH);
    }

    @Test
    void anExistingDirectoryIsNeverTakenOver() throws IOException {
        Path dir = tmp.resolve("7");
        Files.createDirectories(dir);
        assertThatThrownBy(() -> IdentityWriter.create(NioFileIO.INSTANCE, dir, ID)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir)).isEmpty();
    }

    @Test
    void aDirectoryWithoutIdentityReadsEmpty() throws IOException {
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, tmp)).isEmpty();
    }

    @Test
    void bytesArePinnedToVersionOne() {
        // magic "CXID", version 1, 3 reserved zeros, id, owner (msb, lsb), created at, CRC32C of the 40 bytes before it
        assertThat(HexFormat.of().formatHex(IdentityWriter.encode(ID).array())).isEqualTo(
                "43584944" + "01" + "000000" + "4000000000000123" + "0f1e2d3c4b5a6978" + "8796a5b4c3d2e1f0"
                        + "0000019af232b200" + "b4b7c6e4");
    }

    @Test
    void everyFlippedBitIsATypedError() throws IOException {
        byte[] good = IdentityWriter.encode(ID).array();
        for (int bit = 0; bit < good.length * 8; bit++) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            Path dir = write(bad);
            int flipped = bit;
            assertThatThrownBy(() -> IdentityReader.read(NioFileIO.INSTANCE, dir)).as("bit %d", flipped)
                    .isInstanceOf(EngineException.class);
        }
    }

    @Test
    void aFileCutAtAnyLengthIsCorrupt() throws IOException {
        byte[] good = IdentityWriter.encode(ID).array();
        for (int len = 0; len < good.length; len++) {
            Path dir = write(java.util.Arrays.copyOf(good, len));
            int cut = len;
            assertThatThrownBy(() -> IdentityReader.read(NioFileIO.INSTANCE, dir)).as("cut at %d", cut)
                    .isInstanceOf(CorruptFileException.class).hasMessageContaining("expected 44");
        }
        Path longer = write(java.util.Arrays.copyOf(good, good.length + 1));
        assertThatThrownBy(() -> IdentityReader.read(NioFileIO.INSTANCE, longer)).isInstanceOf(CorruptFileException.class);
    }

    @Test
    void anotherVersionIsRefusedNamingBoth() throws IOException {
        ByteBuffer b = IdentityWriter.encode(ID);
        b.put(IdentityFormat.VERSION_OFFSET, (byte) 2);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, IdentityFormat.CRC_OFFSET);
        b.putInt(IdentityFormat.CRC_OFFSET, (int) crc.getValue());
        Path dir = write(b.array());
        assertThatThrownBy(() -> IdentityReader.read(NioFileIO.INSTANCE, dir)).isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=2").hasMessageContaining("expected=1");
    }

    @Test
    void aLeftoverTemporaryFileIsReplaced() throws IOException {
        Path dir = tmp.resolve("adopted");
        Files.createDirectories(dir);
        Files.write(dir.resolve(IdentityFormat.TEMP_NAME), new byte[]{1, 2, 3});
        IdentityWriter.write(NioFileIO.INSTANCE, dir, ID);
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir)).contains(ID);
        assertThat(Files.exists(dir.resolve(IdentityFormat.TEMP_NAME))).isFalse();
    }

    private int n;

    private Path write(byte[] bytes) throws IOException {
        Path dir = tmp.resolve("case" + n++);
        Files.createDirectories(dir);
        Files.write(dir.resolve(IdentityFormat.FILE_NAME), bytes);
        return dir;
    }
}
