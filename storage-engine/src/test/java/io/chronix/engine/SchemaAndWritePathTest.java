package io.chronix.engine;

import io.chronix.engine.error.ColumnConflictException;
import io.chronix.engine.error.FieldTypeConflictException;
import io.chronix.engine.error.ShardOutOfRangeException;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaAndWritePathTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static PointBatch cpu(long ts, String host, double usage) {
        return PointBatch.builder().beginPoint("cpu", ts).tag("host", host).floatField("usage", usage).endPoint().build();
    }

    @Test
    void aBatchOfManyMeasurementsPutsEveryValueInItsOwnMeasurementsField() {
        // more measurements in one batch than the per-batch ordinal memo keeps, interleaved; measurement
        // m has fields f(m), f(m+1), f(m+2) (mod 5), so one field name has another ordinal in each
        // measurement: a value filed under another measurement's ordinal lands in the wrong column
        int measurements = 12;
        try (Chronix c = fx.open(dir)) {
            for (int round = 0; round < 2; round++) {
                PointBatch.Builder b = PointBatch.builder();
                for (int p = 0; p < 3; p++) {
                    for (int m = 0; m < measurements; m++) {
                        b.beginPoint("m" + m, T0 + (round * 3L + p) * SECOND).tag("h", "x");
                        for (int k = 0; k < 3; k++) {
                            int f = (m + (p % 2 == 0 ? k : 2 - k)) % 5; // and in another order every other point
                            b.floatField("f" + f, m * 10 + f + 0.5);
                        }
                        b.endPoint();
                    }
                }
                c.write(b.build());
            }
            for (int m = 0; m < measurements; m++) {
                java.util.TreeMap<String, Double> fields = new java.util.TreeMap<>();
                for (int k = 0; k < 3; k++) {
                    int f = (m + k) % 5;
                    fields.put("f" + f, m * 10 + f + 0.5);
                }
                StringBuilder row = new StringBuilder("|h=\"x\"");
                fields.forEach((name, v) -> row.append('|').append(name).append('=').append(v));
                List<String> rows = fx.rows(c, ScanRequest.all("m" + m));
                assertThat(rows).hasSize(6);
                for (int r = 0; r < 6; r++) {
                    assertThat(rows.get(r)).isEqualTo("time=" + (T0 + r * SECOND) + row);
                }
            }
        }
    }

    @Test
    void conflictingFieldTypeFailsNamingEverythingAndWritesNothingOfTheBatch() {
        try (Chronix c = fx.open(dir)) {
            c.write(cpu(T0, "a", 1.0));
            PointBatch bad = PointBatch.builder()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "b").floatField("usage", 2.0).endPoint()
                    .beginPoint("cpu", T0 + 2 * SECOND).tag("host", "b").integerField("usage", 3).endPoint()
                    .build();
            assertThatThrownBy(() -> c.write(bad))
                    .isInstanceOfSatisfying(FieldTypeConflictException.class, e -> {
                        assertThat(e.measurement()).isEqualTo("cpu");
                        assertThat(e.field()).isEqualTo("usage");
                        assertThat(e.stored()).isEqualTo(FieldType.FLOAT);
                        assertThat(e.offered()).isEqualTo(FieldType.INTEGER);
                    })
                    .hasMessageContaining("measurement=cpu").hasMessageContaining("field=usage")
                    .hasMessageContaining("stored=FLOAT").hasMessageContaining("offered=INTEGER");
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"a\"|usage=1.0");
        }
    }

    @Test
    void twoPointsOfOneBatchDisagreeingOnANewFieldAreRefused() {
        try (Chronix c = fx.open(dir)) {
            PointBatch bad = PointBatch.builder()
                    .beginPoint("m", T0).booleanField("x", true).endPoint()
                    .beginPoint("m", T0 + 1).stringField("x", "s").endPoint()
                    .build();
            assertThatThrownBy(() -> c.write(bad)).isInstanceOf(FieldTypeConflictException.class)
                    .hasMessageContaining("stored=BOOLEAN").hasMessageContaining("offered=STRING");
            assertThat(c.measurements()).isEmpty();
            // the refused batch fixed nothing: the field can still become a string
            c.write(PointBatch.builder().beginPoint("m", T0).stringField("x", "s").endPoint().build());
            assertThat(c.schema("m").orElseThrow().column("x").orElseThrow().type()).isEqualTo(FieldType.STRING);
        }
    }

    @Test
    void aConflictAfterARunOfSameShapedPointsIsStillFound() {
        try (Chronix c = fx.open(dir)) {
            PointBatch.Builder b = PointBatch.builder();
            for (int i = 0; i < 50; i++) {
                b.beginPoint("cpu", T0 + i).tag("host", "h" + i).floatField("usage", i).endPoint();
            }
            b.beginPoint("cpu", T0 + 50).tag("host", "h").floatField("usage", 1).integerField("x", 1).endPoint();
            for (int i = 0; i < 5; i++) {
                b.beginPoint("cpu", T0 + 51 + i).tag("host", "h").floatField("usage", 1).integerField("x", 1).endPoint();
            }
            b.beginPoint("cpu", T0 + 60).tag("host", "h").floatField("usage", 1).floatField("x", 1).endPoint();
            assertThatThrownBy(() -> c.write(b.build())).isInstanceOf(FieldTypeConflictException.class)
                    .hasMessageContaining("stored=INTEGER").hasMessageContaining("offered=FLOAT");
            PointBatch.Builder b2 = PointBatch.builder();
            for (int i = 0; i < 20; i++) {
                b2.beginPoint("cpu", T0 + i).tag("host", "h").floatField("usage", i).endPoint();
            }
            b2.beginPoint("cpu", T0 + 20).tag("usage", "u").floatField("v", 1).endPoint();
            assertThatThrownBy(() -> c.write(b2.build())).isInstanceOf(ColumnConflictException.class)
                    .hasMessageContaining("column=usage");
            assertThat(c.measurements()).as("nothing of either batch was written").isEmpty();
        }
    }

    @Test
    void tagAndFieldOfOneNameOrAColumnNamedTimeAreRefused() {
        try (Chronix c = fx.open(dir)) {
            c.write(cpu(T0, "a", 1));
            assertThatThrownBy(() -> c.write(PointBatch.builder().beginPoint("cpu", T0).tag("usage", "x").floatField("v", 1).endPoint().build()))
                    .isInstanceOf(ColumnConflictException.class).hasMessageContaining("column=usage");
            assertThatThrownBy(() -> c.write(PointBatch.builder().beginPoint("cpu", T0).floatField("time", 1).endPoint().build()))
                    .isInstanceOf(ColumnConflictException.class).hasMessageContaining("column=time");
        }
    }

    @Test
    void fieldTypesSurviveRestartFlushAndWalTruncation() {
        try (Chronix c = fx.open(dir)) {
            c.write(cpu(T0, "a", 1.0));
        }
        try (Chronix c = fx.open(dir)) { // from the WAL's Schema record
            assertThatThrownBy(() -> c.write(PointBatch.builder().beginPoint("cpu", T0).integerField("usage", 1).endPoint().build()))
                    .isInstanceOf(FieldTypeConflictException.class);
            c.flush(); // truncates the WAL: the catalog must now hold the schema
        }
        try (Chronix c = fx.open(dir)) {
            assertThatThrownBy(() -> c.write(PointBatch.builder().beginPoint("cpu", T0).integerField("usage", 1).endPoint().build()))
                    .isInstanceOf(FieldTypeConflictException.class);
            assertThat(EngineFixture.columnNames(c.schema("cpu").orElseThrow())).containsExactly("time", "host", "usage");
        }
    }

    @Test
    void schemaIsInCanonicalOrderWhateverTheWriteOrder() {
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder().beginPoint("m", T0).tag("zone", "z").tag("app", "a").integerField("zeta", 1)
                    .floatField("alpha", 2).endPoint().build());
            c.write(PointBatch.builder().beginPoint("m", T0 + 1).tag("mid", "q").booleanField("beta", true).endPoint().build());
            assertThat(EngineFixture.columnNames(c.schema("m").orElseThrow()))
                    .containsExactly("time", "app", "mid", "zone", "alpha", "beta", "zeta");
            assertThat(c.schema("m").orElseThrow().columns().getFirst().kind()).isEqualTo(Column.Kind.TIME);
            assertThat(c.measurements()).containsExactly("m");
        }
    }

    @Test
    void writeOutsideTheShardWindowFailsNamingTheWindowAndWritesNothing() {
        try (Chronix c = fx.open(dir)) {
            c.write(cpu(T0, "a", 1)); // anchors the window: shards of T0 - 2h .. clock + 1h
            long tooOld = T0 - 3 * 3600 * SECOND;
            PointBatch bad = PointBatch.builder()
                    .beginPoint("cpu", T0 + 1).tag("host", "a").floatField("usage", 5).endPoint()
                    .beginPoint("cpu", tooOld).tag("host", "a").floatField("usage", 6).endPoint().build();
            assertThatThrownBy(() -> c.write(bad))
                    .isInstanceOfSatisfying(ShardOutOfRangeException.class, e -> {
                        assertThat(e.acceptedFrom()).isEqualTo(T0 - 2 * 3600 * SECOND);
                        assertThat(e.acceptedTo()).isEqualTo(T0 + 2 * 3600 * SECOND);
                    })
                    .hasMessageContaining("acceptedFrom=").hasMessageContaining("acceptedTo=");
            long tooNew = T0 + 2 * 3600 * SECOND + 1;
            assertThatThrownBy(() -> c.write(cpu(tooNew, "a", 1))).isInstanceOf(ShardOutOfRangeException.class);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(1);
        }
    }

    @Test
    void anEmptyEngineAcceptsOneBatchSpanningAnyHistoryAndThenAnchorsOnWhatItHolds() {
        try (Chronix c = fx.open(dir)) {
            long hour = 3600 * SECOND;
            PointBatch.Builder history = PointBatch.builder();
            for (int h = 10; h >= 0; h--) { // ten hours in one request, in time order
                history.beginPoint("cpu", T0 - h * hour).tag("host", "a").floatField("usage", h).endPoint();
            }
            c.write(history.build());
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(11);
            // now the engine holds T0: a point more than two shards behind it is outside the window
            assertThatThrownBy(() -> c.write(cpu(T0 - 3 * hour, "b", 1)))
                    .isInstanceOfSatisfying(ShardOutOfRangeException.class,
                            e -> assertThat(e.acceptedFrom()).isEqualTo(T0 - 2 * hour));
            // and a request's own newest point does not move the window before it is held
            PointBatch spanning = PointBatch.builder()
                    .beginPoint("cpu", T0 - 2 * hour).tag("host", "b").floatField("usage", 1).endPoint()
                    .beginPoint("cpu", T0 + hour).tag("host", "b").floatField("usage", 2).endPoint().build();
            c.write(spanning);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(13);
        }
    }

    @Test
    void lastWriteWinsFieldByFieldAndAbsentStaysNull() {
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder().beginPoint("m", T0).tag("h", "a").floatField("x", 1).integerField("y", 2).endPoint().build());
            c.write(PointBatch.builder().beginPoint("m", T0).tag("h", "a").floatField("x", 10).endPoint().build());
            c.write(PointBatch.builder().beginPoint("m", T0 + 1).tag("h", "a").integerField("y", 0).endPoint().build());
            List<String> expected = List.of("time=" + T0 + "|h=\"a\"|x=10.0|y=2i", "time=" + (T0 + 1) + "|h=\"a\"|x=<null>|y=0i");
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            c.flush();
            c.write(PointBatch.builder().beginPoint("m", T0).tag("h", "a").integerField("y", 3).endPoint().build());
            assertThat(fx.rows(c, ScanRequest.all("m"))).containsExactly(
                    "time=" + T0 + "|h=\"a\"|x=10.0|y=3i", "time=" + (T0 + 1) + "|h=\"a\"|x=<null>|y=0i");
        }
    }

    @Test
    void projectionTimeRangeAndTagPredicates() {
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder()
                    .beginPoint("m", T0).tag("h", "a").tag("r", "eu").floatField("x", 1).endPoint()
                    .beginPoint("m", T0 + 5).tag("h", "b").floatField("x", 2).endPoint()
                    .beginPoint("m", T0 + 10).tag("h", "c").tag("r", "us").floatField("x", 3).endPoint()
                    .build());
            for (int round = 0; round < 2; round++) {
                assertThat(fx.rows(c, ScanRequest.all("m").withColumns("x", "time").withTimeRange(T0 + 5, T0 + 10)))
                        .containsExactly("time=" + (T0 + 5) + "|x=2.0", "time=" + (T0 + 10) + "|x=3.0");
                assertThat(fx.rows(c, ScanRequest.all("m").withColumns("h").withTags(new TagPredicate.IsNull("r"))))
                        .containsExactly("h=\"b\"");
                assertThat(fx.rows(c, ScanRequest.all("m").withColumns("h").withTags(new TagPredicate.In("r", Set.of("us", "eu")))))
                        .containsExactly("h=\"a\"", "h=\"c\"");
                assertThat(fx.rows(c, ScanRequest.all("m").withColumns("h").withTags(new TagPredicate.Eq("h", "b"), new TagPredicate.Eq("r", "x"))))
                        .isEmpty();
                c.flush();
            }
            assertThatThrownBy(() -> c.scan(ScanRequest.all("m").withColumns("nope"), fx.allocator))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column=nope");
        }
    }

    @Test
    void lastValueComesFromTheCacheAndAfterRestartFromSegments() {
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder().beginPoint("m", T0 + 9).tag("h", "a").floatField("x", 9).endPoint()
                    .beginPoint("m", T0 + 3).tag("h", "a").floatField("x", 3).integerField("y", 3).endPoint().build());
            c.write(PointBatch.builder().beginPoint("m", T0 + 9).tag("h", "a").integerField("y", 1).endPoint().build());
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator))
                    .contains(new LastPoint(T0 + 9, Map.of("x", 9.0, "y", 1L)));
            assertThat(c.lastValue("m", Map.of("h", "zz"), fx.allocator)).isEmpty();
            c.flush();
        }
        try (Chronix c = fx.open(dir)) {
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator))
                    .contains(new LastPoint(T0 + 9, Map.of("x", 9.0, "y", 1L)));
            // an out-of-order write after restart does not become "last"
            c.write(PointBatch.builder().beginPoint("m", T0 + 1).tag("h", "a").floatField("x", 1).endPoint().build());
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator).orElseThrow().timestamp()).isEqualTo(T0 + 9);
        }
    }
}
