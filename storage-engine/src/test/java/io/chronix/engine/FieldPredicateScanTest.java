package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.FieldPredicate;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Field predicates in {@link Chronix#scanUnordered}: a settled segment answers exactly the rows
 * whose field is non-NULL and in range (NaN above every number, as DuckDB orders it), and no
 * source ever leaves out a row that passes. The expected rows come from the same scan without the
 * predicate, filtered here row by row.
 */
class FieldPredicateScanTest extends TenMinuteShardsTest {


    /**
     * Two hosts, one point a second from {@code start}: {@code usage} = s (NaN where s % 10 == 3,
     * absent where s % 10 == 7), {@code load} = s - 50, {@code big} = s with the top bit set for
     * odd s (an unsigned value above 2^63), {@code note} a string.
     */
    private void write(long start, int seconds) {
        PointBatch.Builder b = PointBatch.builder();
        for (int s = 0; s < seconds; s++) {
            for (String host : List.of("a", "b")) {
                b.beginPoint("cpu", start + s * SECOND).tag("host", host);
                if (s % 10 == 3) {
                    b.floatField("usage", Double.NaN);
                } else if (s % 10 != 7) {
                    b.floatField("usage", s);
                }
                b.integerField("load", s - 50);
                b.unsignedField("big", s % 2 == 1 ? Long.MIN_VALUE | s : s);
                b.stringField("note", "n" + s);
                b.endPoint();
            }
        }
        engine.write(b.build());
    }

    /** The rows of the scan with {@code predicate}, and those of the scan without it that pass {@code model}. */
    private record Answer(List<String> got, List<String> expected, int settled) {
    }

    private Answer scan(FieldPredicate predicate, BiPredicate<VectorSchemaRoot, Integer> model) {
        List<String> expected = new ArrayList<>();
        try (ScanResult all = engine.scanUnordered(ScanRequest.all("cpu"), fx.allocator)) {
            for (VectorSchemaRoot batch : all.batches()) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    if (model.test(batch, row)) {
                        expected.add(render(batch, row));
                    }
                }
            }
        }
        List<String> got = new ArrayList<>();
        int settled;
        try (ScanResult r = engine.scanUnordered(ScanRequest.all("cpu").withFields(predicate), fx.allocator)) {
            settled = r.settledSegments();
            for (VectorSchemaRoot batch : r.batches()) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    got.add(render(batch, row));
                }
            }
        }
        got.sort(null);
        expected.sort(null);
        return new Answer(got, expected, settled);
    }

    private static String render(VectorSchemaRoot batch, int row) {
        StringBuilder sb = new StringBuilder();
        for (FieldVector v : batch.getFieldVectors()) {
            sb.append(v.getName()).append('=').append(v.isNull(row) ? "<null>" : String.valueOf(v.getObject(row))).append('|');
        }
        return sb.toString();
    }

    private static Double usage(VectorSchemaRoot b, int row) {
        Float8Vector v = (Float8Vector) b.getVector("usage");
        return v == null || v.isNull(row) ? null : v.get(row);
    }

    @Test
    void aSettledSegmentAnswersExactlyThePassingRowsWithNaNAboveEveryNumber() {
        open();
        write(T0, 100);
        engine.flush();
        Answer high = scan(FieldPredicate.atLeast("usage", 90), (b, r) -> usage(b, r) != null && (usage(b, r) >= 90 || usage(b, r).isNaN()));
        assertThat(high.settled()).isEqualTo(1);
        assertThat(high.got()).isEqualTo(high.expected());
        assertThat(high.got()).hasSize(2 * (8 + 10)); // 90..99 less 93 and 97, plus the 10 NaNs of 3, 13, …, 93
        Answer low = scan(FieldPredicate.atMost("usage", 5), (b, r) -> usage(b, r) != null && usage(b, r) <= 5);
        assertThat(low.got()).isEqualTo(low.expected()).hasSize(2 * 5); // 0, 1, 2, 4, 5
    }

    /**
     * With a tag predicate, only the matching series' rows are tested: small row groups, so each
     * series' rows cross row-group boundaries and the row groups hold several series' runs.
     */
    @Test
    void withATagPredicateOnlyItsSeriesRowsAreTestedAcrossRowGroups() {
        openWithRowGroupsOf(64);
        PointBatch.Builder b = PointBatch.builder();
        List<String> hosts = List.of("a", "b", "c", "d", "e", "f");
        for (int s = 0; s < 100; s++) {
            for (int h = 0; h < hosts.size(); h++) {
                b.beginPoint("cpu", T0 + s * SECOND).tag("host", hosts.get(h));
                if ((s + h) % 9 != 4) {
                    b.floatField("usage", (s * 7 + h * 13) % 100);
                }
                b.integerField("n", s);
                b.endPoint();
            }
        }
        engine.write(b.build());
        engine.flush();
        for (List<TagPredicate> tags : List.of(
                List.<TagPredicate>of(new TagPredicate.Eq("host", "b")),
                List.<TagPredicate>of(new TagPredicate.In("host", Set.of("a", "e", "f"))))) {
            List<String> expected = new ArrayList<>();
            try (ScanResult all = engine.scanUnordered(new ScanRequest("cpu", List.of(), Long.MIN_VALUE, Long.MAX_VALUE, tags), fx.allocator)) {
                for (VectorSchemaRoot batch : all.batches()) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        if (usage(batch, row) != null && usage(batch, row) >= 60) {
                            expected.add(render(batch, row));
                        }
                    }
                }
            }
            List<String> got = new ArrayList<>();
            try (ScanResult r = engine.scanUnordered(new ScanRequest("cpu", List.of(), Long.MIN_VALUE, Long.MAX_VALUE, tags,
                    List.of(FieldPredicate.atLeast("usage", 60))), fx.allocator)) {
                assertThat(r.settledSegments()).isEqualTo(1);
                for (VectorSchemaRoot batch : r.batches()) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        got.add(render(batch, row));
                    }
                }
            }
            got.sort(null);
            expected.sort(null);
            assertThat(expected).as("%s", tags).hasSizeGreaterThan(20);
            assertThat(got).as("%s", tags).isEqualTo(expected);
        }
    }

    @Test
    void integerAndUnsignedFieldsCompareByValue() {
        open();
        write(T0, 100);
        engine.flush();
        Answer load = scan(new FieldPredicate("load", -3, 3),
                (b, r) -> Math.abs(((BigIntVector) b.getVector("load")).get(r)) <= 3);
        assertThat(load.got()).isEqualTo(load.expected()).hasSize(2 * 7);
        Answer big = scan(FieldPredicate.atLeast("big", 0x1p63),
                (b, r) -> ((UInt8Vector) b.getVector("big")).get(r) < 0); // the top bit set: at least 2^63
        assertThat(big.got()).isEqualTo(big.expected()).hasSize(2 * 50);
    }

    @Test
    void anEmptyRangeOrAFieldTheSegmentLacksKeepsNothingOfIt() {
        open();
        write(T0, 30);
        engine.flush();
        assertThat(scan(new FieldPredicate("usage", 5, 4), (b, r) -> false).got()).isEmpty();
        assertThat(scan(FieldPredicate.atLeast("missing", 0), (b, r) -> false).got()).isEmpty();
    }

    @Test
    void aPredicateOnAStringFieldOrOneMostRowsPassReadsTheRowGroupWhole() {
        open();
        write(T0, 100);
        engine.flush();
        Answer text = scan(FieldPredicate.atLeast("note", 0), (b, r) -> true);
        assertThat(text.got()).isEqualTo(text.expected()).hasSize(200);
        // 80 % pass: the whole row group is read, the rows that fail come along for DuckDB to drop
        Answer most = scan(FieldPredicate.atLeast("load", -30), (b, r) -> true);
        assertThat(most.got()).isEqualTo(most.expected()).hasSize(200);
    }

    @Test
    void rowsThatTheMergeFoldsAreNeverDroppedByThePredicate() {
        open();
        write(T0, 100);
        engine.flush();
        // an overwrite in the memtable: the segment is no longer settled, and its rows go through the
        // merge, where a newer row may replace an older one's fields; nothing that passes is lost
        PointBatch.Builder b = PointBatch.builder();
        b.beginPoint("cpu", T0 + 95 * SECOND).tag("host", "a").floatField("usage", 1.0).endPoint();
        b.beginPoint("cpu", T0 + 1 * SECOND).tag("host", "a").floatField("usage", 99.5).endPoint();
        engine.write(b.build());
        Answer high = scan(FieldPredicate.atLeast("usage", 90), (bt, r) -> usage(bt, r) != null && (usage(bt, r) >= 90 || usage(bt, r).isNaN()));
        assertThat(high.settled()).isZero();
        assertThat(high.got()).containsAll(high.expected());
        assertThat(high.expected()).anyMatch(row -> row.contains("usage=99.5"));
        assertThat(high.expected()).noneMatch(row -> row.contains("host=a") && row.contains("usage=95.0"));
    }
}
