package io.chronix.engine;

import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.error.EngineException;
import io.chronix.engine.error.WalReplayException;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.tool.ChronixTool;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A record that uses a field declaration must follow the {@code Schema} record of that declaration
 * in the WAL. What replay does when it does not: a log written before the rule (a record ahead of
 * the declaration it needs) opens with every point, the later declaration applied early; a record
 * whose declaration is nowhere, or contradicts it, fails the open with a {@link WalReplayException}
 * naming file, offset, sequence and field — never a {@code NullPointerException}. And the write
 * path keeps the rule when a {@code Schema} append fails.
 */
class WalDeclarationOrderTest {

    /** A log an engine without the ordering rule wrote: 8 writers racing the first point of each of 12 new measurements. */
    private static final String LEGACY_FIXTURE = "/wal-legacy-out-of-order/wal_00000000000000000001.cxwl";

    @TempDir
    Path ns;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static PointBatch cpu(long ts, String host, double usage) {
        return PointBatch.builder().beginPoint("cpu", ts).tag("host", host).floatField("usage", usage).endPoint().build();
    }

    private static ByteBuffer schema(String measurement, String field, FieldType type) {
        return ByteBuffer.wrap(WalCodec.encode(new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration(measurement, field, type)))));
    }

    private static ByteBuffer points(PointBatch batch) {
        return ByteBuffer.wrap(WalCodec.encode(new WalEntry.Points(batch)));
    }

    /** Writes records into the namespace's WAL as they are given, in that order. */
    private void writeWal(ByteBuffer... records) {
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(ns.resolve(DataDirectory.WAL)).withFsyncPolicy(FsyncPolicy.PER_WRITE),
                new WalMetrics())) {
            for (ByteBuffer r : records) {
                WalEntry e = WalCodec.decode(r.duplicate());
                wal.append(e.recordType(), r);
            }
        }
    }

    @Test
    void aRecordAheadOfTheSchemaRecordItNeedsOpensWithTheLaterDeclarationApplied() {
        PointBatch two = PointBatch.builder()
                .beginPoint("cpu", T0 + SECOND).tag("host", "b").floatField("usage", 0.75).integerField("cores", 8).endPoint()
                .beginPoint("cpu", T0 + 2 * SECOND).tag("host", "c").floatField("usage", 0.25).endPoint().build();
        writeWal(
                points(cpu(T0, "a", 0.5)),                   // 1: needs usage, declared at 3
                points(two),                                 // 2: needs usage and cores, declared at 3 and 4
                schema("cpu", "usage", FieldType.FLOAT),     // 3
                schema("cpu", "cores", FieldType.INTEGER));  // 4
        List<String> expected = List.of(
                "time=" + T0 + "|host=\"a\"|cores=<null>|usage=0.5",
                "time=" + (T0 + SECOND) + "|host=\"b\"|cores=8i|usage=0.75",
                "time=" + (T0 + 2 * SECOND) + "|host=\"c\"|cores=<null>|usage=0.25");
        try (Chronix c = fx.open(ns)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).isEqualTo(expected);
            assertThat(c.schema("cpu").orElseThrow().columns().get(2).type()).isEqualTo(FieldType.INTEGER);
            c.write(cpu(T0 + 3 * SECOND, "a", 1.0));
            c.flush(); // the declarations reach the catalog; the WAL is truncated
        }
        try (Chronix c = fx.open(ns)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(4).containsAll(expected);
        }
    }

    @Test
    void aLogTheOldEngineWroteOutOfOrderOpensWithEveryPoint() throws IOException {
        Path wal = ns.resolve(DataDirectory.WAL);
        Files.createDirectories(wal);
        try (InputStream in = getClass().getResourceAsStream(LEGACY_FIXTURE)) {
            assertThat(in).as("fixture on the test class path").isNotNull();
            Files.copy(in, wal.resolve("wal_00000000000000000001.cxwl"));
        }
        ByteArrayOutputStream verify = new ByteArrayOutputStream();
        assertThat(ChronixTool.run(new String[] {"wal", "verify", ns.toString()}, new PrintStream(verify, true),
                new PrintStream(verify, true), NioFileIO.INSTANCE)).as("the fixture really holds records ahead of their Schema record")
                .isEqualTo(ChronixTool.EXIT_OUT_OF_ORDER);
        assertThat(verify.toString()).contains("out of order in " + wal.resolve("wal_00000000000000000001.cxwl"));
        try (Chronix c = fx.open(ns)) {
            List<String> stored = new ArrayList<>();
            for (int m = 0; m < 12; m++) {
                for (String row : fx.rows(c, ScanRequest.all("m" + m))) {
                    stored.add("m" + m + "|" + row.replaceAll("\\|own\\d+=<null>", ""));
                }
            }
            List<String> expected = new ArrayList<>();
            for (int m = 0; m < 12; m++) {
                for (int w = 0; w < 8; w++) {
                    expected.add("m" + m + "|time=" + (T0 + m * SECOND) + "|w=\"w" + w + "\"|own" + w + "=" + (w + 0.5) + "|shared=" + m + "i");
                }
            }
            assertThat(stored).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void aRecordWhoseFieldIsDeclaredNowhereIsDeclaredFromItsOwnTypeAndOpens() {
        // an engine before the ordering rule lost the Schema record of "note" (a crash or a failed
        // append between its commit and its record): the record itself says the field is a string
        writeWal(schema("cpu", "usage", FieldType.FLOAT), points(cpu(T0, "a", 0.5)),
                points(PointBatch.builder().beginPoint("cpu", T0 + SECOND).tag("host", "a").floatField("usage", 1)
                        .stringField("note", "x").endPoint().build()));
        try (Chronix c = fx.open(ns)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly(
                    "time=" + T0 + "|host=\"a\"|note=<null>|usage=0.5",
                    "time=" + (T0 + SECOND) + "|host=\"a\"|note=\"x\"|usage=1.0");
            c.flush(); // the declaration reaches the catalog
        }
        try (Chronix c = fx.open(ns)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(2);
        }
    }

    @Test
    void aRecordGivingAFieldAnotherTypeThanItsDeclarationFailsTheOpen() {
        writeWal(schema("cpu", "usage", FieldType.INTEGER), points(cpu(T0, "a", 0.5)));
        assertThatThrownBy(() -> fx.open(ns)).isInstanceOfSatisfying(WalReplayException.class, e -> {
            assertThat(e.sequence()).isEqualTo(2);
            assertThat(e.reason()).isEqualTo("field \"usage\" of measurement \"cpu\" is FLOAT in this record but declared INTEGER");
        });
    }

    @Test
    void aRecordAheadOfALaterDeclarationOfAnotherTypeFailsTheOpen() {
        writeWal(points(cpu(T0, "a", 0.5)), schema("cpu", "usage", FieldType.BOOLEAN));
        assertThatThrownBy(() -> fx.open(ns)).isInstanceOfSatisfying(WalReplayException.class, e -> {
            assertThat(e.sequence()).isEqualTo(1);
            assertThat(e.reason()).contains("FLOAT").contains("declared BOOLEAN by the Schema record at sequence 2");
        });
    }

    @Test
    void aSchemaRecordContradictingAnEarlierDeclarationFailsTheOpen() {
        writeWal(schema("cpu", "usage", FieldType.FLOAT), schema("cpu", "usage", FieldType.STRING));
        assertThatThrownBy(() -> fx.open(ns)).isInstanceOfSatisfying(WalReplayException.class, e -> {
            assertThat(e.sequence()).isEqualTo(2);
            assertThat(e.reason()).contains("STRING").contains("FLOAT");
        });
    }

    @Test
    void aFieldWhoseSchemaAppendFailedIsLoggedByTheNextWriteBeforeItsPoints() {
        WalLossFileIO io = new WalLossFileIO();
        EngineConfig config = EngineFixture.config().withIo(io).withFsyncPolicy(FsyncPolicy.PER_BATCH)
                .withMaintenanceInterval(Duration.ZERO);
        Chronix c = fx.open(ns, config);
        c.write(cpu(T0, "a", 0.5));
        io.failNextWalWrite(); // the Schema record of "cores"
        assertThatThrownBy(() -> c.write(PointBatch.builder().beginPoint("cpu", T0 + SECOND).tag("host", "a")
                .integerField("cores", 4).endPoint().build())).isInstanceOf(EngineException.class);
        assertThat(io.failedWalWrites).as("the fault fired").isEqualTo(1);
        // "cores" is committed in memory; this write sees it declared and must not precede its record
        c.write(PointBatch.builder().beginPoint("cpu", T0 + 2 * SECOND).tag("host", "a").integerField("cores", 8).endPoint().build());
        c.crashForTest();
        try (Chronix reopened = fx.open(ns, config)) {
            assertThat(fx.rows(reopened, ScanRequest.all("cpu"))).containsExactly(
                    "time=" + T0 + "|host=\"a\"|cores=<null>|usage=0.5",
                    "time=" + (T0 + 2 * SECOND) + "|host=\"a\"|cores=8i|usage=<null>");
        }
    }
}
