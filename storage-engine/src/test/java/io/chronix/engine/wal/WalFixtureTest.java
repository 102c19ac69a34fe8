package io.chronix.engine.wal;

import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.io.SimulatedFileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static io.chronix.engine.wal.WalFixtures.DIR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins format version 1, frame and codec: a checked-in log (one record of each type) must read back
 * as these entries, and writing these entries must reproduce it byte for byte. A change that fails
 * here changes the on-disk format and needs a new version, not a new fixture.
 */
class WalFixtureTest {

    private static final String FIXTURE = "/wal-fixture-v1/wal_00000000000000000001.cxwl";

    static List<WalEntry> entries() {
        PointBatch one = PointBatch.builder().beginPoint("cpu", 1_700_000_000_000_000_000L).tag("host", "a")
                .floatField("usage", 0.25).endPoint().build();
        PointBatch two = PointBatch.builder()
                .beginPoint("mem", 1_700_000_000_000_000_000L).tag("host", "a").integerField("used", -42).unsignedField("free", -1L)
                .booleanField("ok", true).stringField("note", "héllo").endPoint()
                .beginPoint("mem", 1_700_000_000_001_000_000L).tag("host", "b").integerField("used", 7).endPoint().build();
        TreeMap<String, String> tags = new TreeMap<>();
        tags.put("host", "a");
        return List.of(new WalEntry.Points(one), new WalEntry.Points(two),
                new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration("cpu", "usage", FieldType.FLOAT))),
                new WalEntry.Tombstone("cpu", tags, 10, 20));
    }

    private static byte[] fixture() throws IOException {
        try (InputStream in = WalFixtureTest.class.getResourceAsStream(FIXTURE)) {
            assertThat(in).as("fixture on the test class path").isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void checkedInVersionOneLogReadsBackAsItsEntries() throws IOException {
        SimulatedFileIO io = WalFixtures.simulated();
        io.overwrite(DIR.resolve(WalFormat.fileName(1)), fixture());
        List<WalEntry> back = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        WalReader.Scan scan = WalReader.replayAll(io, DIR, r -> {
            seqs.add(r.sequence());
            back.add(WalCodec.decode(r.payload()));
        });
        assertThat(scan.clean()).isTrue();
        assertThat(seqs).containsExactly(1L, 2L, 3L, 4L);
        assertThat(back).isEqualTo(entries());
    }

    @Test
    void writingTheSameEntriesReproducesTheFixtureByteForByte() throws IOException {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter w = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_WRITE), new WalMetrics())) {
            for (WalEntry e : entries()) {
                w.append(e.recordType(), ByteBuffer.wrap(WalCodec.encode(e)));
            }
        }
        assertThat(io.contents(DIR.resolve(WalFormat.fileName(1)))).isEqualTo(fixture());
    }
}
