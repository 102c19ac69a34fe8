package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parser's series-key cache: a line whose measurement and tag set repeat an earlier accepted
 * line's bytes takes that line's ids. Each case compares with the batch the lines give one by one
 * (each in a parser of its own, where nothing can be cached), or checks the error a line gets.
 */
class SeriesKeyCacheTest {

    private static PointBatch parseTogether(String body) {
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0, into);
        assertThat(r.errors()).as(body).isEmpty();
        return into.build();
    }

    /** The same lines, each parsed by a fresh parser into its own batch, copied into one. */
    private static PointBatch parseOneByOne(String body) {
        PointBatch.Builder all = PointBatch.builder();
        for (String line : body.split("\n")) {
            PointBatch.Builder one = PointBatch.builder();
            ParseResult r = new LineProtocolParser().parse(line.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0, one);
            assertThat(r.errors()).as(line).isEmpty();
            PointBatch p = one.build();
            all.beginPoint(p.measurement(0), p.timestamp(0));
            for (int t = 0; t < p.tagCount(0); t++) {
                all.tag(p.tagKey(0, t), p.tagValue(0, t));
            }
            for (int f = 0; f < p.fieldCount(0); f++) {
                switch (p.fieldType(0, f)) {
                    case FLOAT -> all.floatField(p.fieldName(0, f), p.floatValue(0, f));
                    case INTEGER -> all.integerField(p.fieldName(0, f), p.longValue(0, f));
                    case UNSIGNED -> all.unsignedField(p.fieldName(0, f), p.longValue(0, f));
                    case BOOLEAN -> all.booleanField(p.fieldName(0, f), p.booleanValue(0, f));
                    case STRING -> all.stringField(p.fieldName(0, f), p.stringValue(0, f));
                }
            }
            all.endPoint();
        }
        return all.build();
    }

    @Test
    void interleavedRepeatedTagSetsParseAsEachLineAlone() {
        String body = """
                cpu,host=a,region=x usage=1i 1
                cpu,host=b,region=y usage=2i 2
                cpu,host=a,region=x usage=3i 3
                mem,host=a,region=x used=4i 4
                cpu,host=b,region=y usage=5i 5
                cpu usage=6i 6
                cpu usage=7i 7
                cpu,region=x,host=a usage=8i 8
                cpu,host=a,region=x usage=9i 9""";
        PointBatch batch = parseTogether(body);
        assertThat(batch).isEqualTo(parseOneByOne(body));
        assertThat(batch.tagValue(2, 0)).isEqualTo("a");
        assertThat(batch.measurement(3)).isEqualTo("mem");
        assertThat(batch.tagCount(5)).isZero();
    }

    @Test
    void escapedSeriesKeysRepeatByTheirRawBytes() {
        // an escaped space or comma is part of the key, not its end; a backslash pair ends before the space
        String body = """
                c\\ p\\,u,ho\\ st=a\\,b\\=c,r=\\\\ v=1i 1
                m\\\\ v=2i 2
                c\\ p\\,u,ho\\ st=a\\,b\\=c,r=\\\\ v=3i 3
                m\\\\ v=4i 4
                c\\ p\\,u,ho\\ st=a\\,b\\=d,r=\\\\ v=5i 5""";
        PointBatch batch = parseTogether(body);
        assertThat(batch).isEqualTo(parseOneByOne(body));
        assertThat(batch.measurement(2)).isEqualTo("c p,u");
        assertThat(batch.tagKey(2, 0)).isEqualTo("ho st");
        assertThat(batch.tagValue(2, 0)).isEqualTo("a,b=c");
        assertThat(batch.tagValue(2, 1)).isEqualTo("\\");
        assertThat(batch.measurement(3)).isEqualTo("m\\");
        assertThat(batch.tagValue(4, 0)).isEqualTo("a,b=d");
    }

    @Test
    void aCachedTagSetStillReportsADuplicateFieldWhereItIs() {
        String body = "cpu,host=a v=1i 1\ncpu,host=a v=2i,v=3i 2\n";
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0,
                PointBatch.builder());
        assertThat(r.points()).isEqualTo(1);
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.column()).isEqualTo(17);
            assertThat(e.message()).contains("duplicate field name: v");
        });
    }

    @Test
    void aRejectedTagSetIsNotCachedAndIsRejectedAgain() {
        String body = "cpu,host=a,host=b v=1i 1\ncpu,host=a,host=b v=2i 2\ncpu,host=a v=3i 3\ncpu,host=a,x v=4i 4\n";
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0,
                PointBatch.builder());
        assertThat(r.points()).isEqualTo(1);
        assertThat(r.lineOfPoint(0)).isEqualTo(3);
        assertThat(r.errors()).hasSize(3);
        assertThat(r.errors().get(0).message()).contains("duplicate tag key: host");
        assertThat(r.errors().get(1).line()).isEqualTo(2);
        assertThat(r.errors().get(1).column()).isEqualTo(12);
        assertThat(r.errors().get(1).message()).contains("duplicate tag key: host");
        assertThat(r.errors().get(2).message()).isEqualTo("expected '=' after tag key");
    }

    @Test
    void aCachedKeyFollowedByBadBytesIsStillAnError() {
        String body = "cpu,host=a v=1i 1\ncpu,host=a \ncpu,host=a v=\"\u00ff\" 3\ncpu,host=a v=4i 4";
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1); // \u00ff as one byte: not UTF-8
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = new LineProtocolParser().parse(bytes, Precision.NANOSECONDS, 0, into);
        assertThat(r.points()).isEqualTo(2);
        assertThat(r.errors()).extracting(LineError::message)
                .containsExactly("expected a field set (key=value)", "expected valid UTF-8");
        assertThat(into.build().timestamp(1)).isEqualTo(4);
    }

    @Test
    void moreSeriesThanTheCacheHoldsStillParseRight() {
        StringBuilder body = new StringBuilder();
        int series = 20_000; // beyond the cache's bound: the later keys are parsed in full every time
        for (int round = 0; round < 2; round++) {
            for (int s = 0; s < series; s++) {
                body.append("cpu,host=h").append(s).append(",rack=").append(s % 7).append(" v=").append(round).append("i ")
                        .append(round * series + s).append('\n');
            }
        }
        PointBatch batch = parseTogether(body.toString());
        assertThat(batch.size()).isEqualTo(2 * series);
        for (int i : new int[] {0, 16_383, 16_384, 19_999, 20_000, 36_383, 36_384, 39_999}) {
            int s = i % series;
            assertThat(batch.tagValue(i, 0)).as("point %d", i).isEqualTo("h" + s);
            assertThat(batch.tagValue(i, 1)).as("point %d", i).isEqualTo(String.valueOf(s % 7));
            assertThat(batch.longValue(i, 0)).isEqualTo(i / series);
        }
    }

    @Test
    void randomBodiesOfRepeatedSeriesParseAsEachLineAlone() {
        long seed = LineProtocolPropertyTest.seed();
        System.out.println("SeriesKeyCacheTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            String[] keys = new String[1 + rnd.nextInt(5)];
            for (int k = 0; k < keys.length; k++) {
                PointBatch.Builder one = PointBatch.builder().beginPoint(LineProtocolPropertyTest.name(rnd), 0);
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (int t = rnd.nextInt(4); t > 0; t--) {
                    String key = LineProtocolPropertyTest.name(rnd);
                    if (seen.add(key)) {
                        one.tag(key, LineProtocolPropertyTest.name(rnd));
                    }
                }
                String line = LineProtocolWriter.write(one.integerField("v", 0).endPoint().build(), Precision.NANOSECONDS);
                keys[k] = line.substring(0, line.indexOf(" v=0i"));
            }
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < 30; i++) {
                body.append(keys[rnd.nextInt(keys.length)]).append(" v=").append(i).append("i ").append(i).append('\n');
            }
            String text = body.toString();
            if (text.startsWith("#") || text.startsWith("\t") || text.contains("\n#") || text.contains("\n\t")) {
                continue; // a leading '#' or tab makes a comment or blank, not a point: nothing to compare
            }
            assertThat(parseTogether(text)).as("seed=%d round=%d body=%s", seed, round, text).isEqualTo(parseOneByOne(text));
        }
    }
}
