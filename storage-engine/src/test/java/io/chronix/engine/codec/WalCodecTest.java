package io.chronix.engine.codec;

import io.chronix.engine.error.PayloadDecodeException;
import io.chronix.engine.error.UnknownPayloadVersionException;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.wal.WalRecordType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class WalCodecTest {

    private static final long SEED = Long.getLong("chronix.test.seed", System.nanoTime());
    private static final String[] WORDS = {"cpu", "mem", "host", "région", "dc", "a", "b", "日本", "", "usage", "x".repeat(300)};

    @Test
    void payloadStartsWithVersionThenDiscriminant() {
        PointBatch one = PointBatch.builder().beginPoint("cpu", 5).floatField("v", 1).endPoint().build();
        byte[] bytes = WalCodec.encode(new WalEntry.Points(one));
        assertThat(bytes[0]).isEqualTo((byte) 0x01);
        assertThat(bytes[1]).as("one point is a DATA entry").isEqualTo((byte) WalRecordType.DATA.code());
        byte[] schema = WalCodec.encode(new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration("m", "f", FieldType.STRING))));
        assertThat(schema[1]).isEqualTo((byte) WalRecordType.SCHEMA.code());
    }

    @Test
    void jsonDocumentIsRefusedAsUnknownVersion() {
        byte[] json = "{\"Write\":{\"measurement\":\"cpu\",\"fields\":{\"v\":1.0}}}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> WalCodec.decode(json))
                .isInstanceOfSatisfying(UnknownPayloadVersionException.class, e -> assertThat(e.found()).isEqualTo('{'));
    }

    @Test
    void everyVersionByteButOneIsRefused() {
        byte[] valid = WalCodec.encode(new WalEntry.Tombstone("m", new TreeMap<>(), 1, 2));
        int refused = 0;
        for (int v = 0; v < 256; v++) {
            byte[] b = valid.clone();
            b[0] = (byte) v;
            if (v == 1) {
                assertThat(WalCodec.decode(b)).isInstanceOf(WalEntry.Tombstone.class);
                continue;
            }
            int version = v;
            assertThatThrownBy(() -> WalCodec.decode(b)).isInstanceOfSatisfying(UnknownPayloadVersionException.class,
                    e -> assertThat(e.found()).isEqualTo(version));
            refused++;
        }
        assertThat(refused).isEqualTo(255);
        assertThatThrownBy(() -> WalCodec.decode(new byte[0])).isInstanceOf(UnknownPayloadVersionException.class);
    }

    @Test
    void randomBatchesRoundTripExactly() {
        Random rnd = new Random(SEED);
        try {
            for (int iteration = 0; iteration < 500; iteration++) {
                PointBatch batch = randomBatch(rnd, 1 + rnd.nextInt(40));
                WalEntry entry = new WalEntry.Points(batch);
                WalEntry back = WalCodec.decode(WalCodec.encode(entry));
                assertThat(back).isEqualTo(entry);
                assertThat(back.recordType()).isEqualTo(batch.size() == 1 ? WalRecordType.DATA : WalRecordType.BATCH);
            }
        } catch (AssertionError e) {
            fail("seed " + SEED + " (rerun with -Dchronix.test.seed=" + SEED + ")", e);
        }
    }

    @Test
    void extremeValuesRoundTrip() {
        PointBatch b = PointBatch.builder()
                .beginPoint("m", Long.MIN_VALUE).integerField("i", Long.MIN_VALUE).unsignedField("u", -1L)
                .floatField("nan", Double.NaN).floatField("negzero", -0.0).endPoint()
                .beginPoint("m", Long.MAX_VALUE).integerField("i", Long.MAX_VALUE).floatField("inf", Double.NEGATIVE_INFINITY).endPoint()
                .beginPoint("m", 0).booleanField("b", false).stringField("s", "").endPoint()
                .build();
        assertThat(WalCodec.decode(WalCodec.encode(new WalEntry.Points(b)))).isEqualTo(new WalEntry.Points(b));
    }

    @Test
    void schemaAndTombstoneRoundTrip() {
        TreeMap<String, String> tags = new TreeMap<>();
        tags.put("host", "a");
        tags.put("dc", "日本");
        List<WalEntry> entries = List.of(
                new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration("cpu", "usage", FieldType.FLOAT),
                        new WalEntry.FieldDeclaration("cpu", "n", FieldType.UNSIGNED))),
                new WalEntry.Tombstone("cpu", tags, -5, Long.MAX_VALUE));
        for (WalEntry e : entries) {
            assertThat(WalCodec.decode(WalCodec.encode(e))).isEqualTo(e);
        }
    }

    @Test
    void randomBytesAndMutationsOnlyEverRaiseTypedErrors() {
        Random rnd = new Random(SEED);
        int typedErrors = 0;
        try {
            for (int i = 0; i < 5_000; i++) {
                byte[] input;
                if (i % 2 == 0) {
                    input = new byte[rnd.nextInt(64)];
                    rnd.nextBytes(input);
                    if (input.length > 0) {
                        input[0] = 0x01;
                    }
                } else {
                    input = WalCodec.encode(new WalEntry.Points(randomBatch(rnd, 1 + rnd.nextInt(5))));
                    int mutations = 1 + rnd.nextInt(3);
                    for (int m = 0; m < mutations; m++) {
                        input[rnd.nextInt(input.length)] = (byte) rnd.nextInt(256);
                    }
                    if (rnd.nextInt(4) == 0) {
                        input = Arrays.copyOf(input, rnd.nextInt(input.length + 1));
                    }
                }
                try {
                    WalCodec.decode(input);
                } catch (UnknownPayloadVersionException | PayloadDecodeException e) {
                    typedErrors++;
                } catch (RuntimeException e) {
                    fail("seed " + SEED + ": untyped " + e + " for " + Arrays.toString(input), e);
                }
            }
        } catch (OutOfMemoryError e) {
            fail("seed " + SEED + ": decoder allocated from an unchecked count", e);
        }
        assertThat(typedErrors).as("the fuzz reached the error paths").isGreaterThan(1000);
    }

    @Test
    void countLargerThanThePayloadIsRefusedBeforeAllocating() {
        byte[] hostile = {0x01, 0x01, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
        assertThatThrownBy(() -> WalCodec.decode(hostile)).isInstanceOf(PayloadDecodeException.class)
                .hasMessageContaining("exceeds");
    }

    @Test
    void trailingBytesAreRefused() {
        byte[] valid = WalCodec.encode(new WalEntry.Tombstone("m", new TreeMap<>(), 1, 2));
        byte[] longer = Arrays.copyOf(valid, valid.length + 1);
        assertThatThrownBy(() -> WalCodec.decode(longer)).isInstanceOf(PayloadDecodeException.class).hasMessageContaining("trailing");
    }

    @Test
    void encodingReusesTheBufferAcrossBatches() {
        EncodeBuffer buffer = new EncodeBuffer(16);
        PointBatch big = randomBatch(new Random(1), 200);
        WalCodec.encodePoints(big, buffer);
        int first = buffer.length();
        PointBatch small = randomBatch(new Random(2), 2);
        WalCodec.encodePoints(small, buffer);
        assertThat(buffer.length()).isLessThan(first);
        assertThat(WalCodec.decode(buffer.view())).isEqualTo(new WalEntry.Points(small));
    }

    static PointBatch randomBatch(Random rnd, int points) {
        PointBatch.Builder b = PointBatch.builder();
        long ts = rnd.nextLong();
        for (int i = 0; i < points; i++) {
            ts += rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(1_000_000);
            b.beginPoint(WORDS[rnd.nextInt(WORDS.length)], ts);
            int tags = rnd.nextInt(4);
            for (int t = 0; t < tags; t++) {
                b.tag("t" + t + WORDS[rnd.nextInt(WORDS.length)], WORDS[rnd.nextInt(WORDS.length)]);
            }
            int fields = 1 + rnd.nextInt(5);
            for (int f = 0; f < fields; f++) {
                String name = "f" + f;
                switch (FieldType.values()[rnd.nextInt(5)]) {
                    case FLOAT -> b.floatField(name, rnd.nextDouble() * 1e6 - 5e5);
                    case INTEGER -> b.integerField(name, rnd.nextLong());
                    case UNSIGNED -> b.unsignedField(name, rnd.nextLong());
                    case BOOLEAN -> b.booleanField(name, rnd.nextBoolean());
                    case STRING -> b.stringField(name, WORDS[rnd.nextInt(WORDS.length)] + rnd.nextInt(10));
                }
            }
            b.endPoint();
        }
        return b.build();
    }
}
