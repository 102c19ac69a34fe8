package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The last-value entry's copies: shared while it is unchanged, new after any change, never written. */
class LastValueTest {

    /** Fields "a" (ordinal 0) and "b" (ordinal 1) of one point at {@code ts}; a negative value leaves the field out. */
    private static void offer(LastValue lv, long ts, double a, double b) {
        PointBatch.Builder builder = PointBatch.builder();
        builder.beginPoint("m", ts).tag("host", "h");
        int[] ordinals = new int[2];
        int n = 0;
        if (a >= 0) {
            builder.floatField("a", a);
            ordinals[n++] = 0;
        }
        if (b >= 0) {
            builder.floatField("b", b);
            ordinals[n++] = 1;
        }
        builder.endPoint();
        lv.offer(ts, builder.build(), 0, ordinals, 0);
    }

    /** The cache's bits of a float value. */
    private static long bits(double v) {
        return Double.doubleToRawLongBits(v);
    }

    @Test
    void readsBetweenWritesShareOneCopy() {
        LastValue lv = new LastValue();
        assertThat(lv.snapshot()).isNull();
        offer(lv, 10, 1.5, 2.5);

        LastValue.Snapshot first = lv.snapshot();
        assertThat(lv.snapshot()).isSameAs(first);
        assertThat(lv.state().snapshot()).isSameAs(first);
        assertThat(first.timestamp()).isEqualTo(10);
        assertThat(first.bits()[0]).isEqualTo(bits(1.5));
        assertThat(first.bits()[1]).isEqualTo(bits(2.5));
    }

    @Test
    void aWriteGivesTheNextReadANewCopyAndLeavesTheOldOneAsItWas() {
        LastValue lv = new LastValue();
        offer(lv, 10, 1.5, 2.5);
        LastValue.Snapshot before = lv.snapshot();

        offer(lv, 20, 7.0, -1); // newer, only "a"
        LastValue.Snapshot after = lv.snapshot();
        assertThat(after).isNotSameAs(before);
        assertThat(after.timestamp()).isEqualTo(20);
        assertThat(after.has()).startsWith(true, false);
        assertThat(after.bits()[0]).isEqualTo(bits(7.0));
        // the copy handed out earlier still says what the entry held then
        assertThat(before.timestamp()).isEqualTo(10);
        assertThat(before.has()).startsWith(true, true);
        assertThat(before.bits()[0]).isEqualTo(bits(1.5));
        assertThat(before.bits()[1]).isEqualTo(bits(2.5));

        offer(lv, 20, -1, 3.0); // same timestamp: merged, last write wins
        LastValue.Snapshot merged = lv.snapshot();
        assertThat(merged).isNotSameAs(after);
        assertThat(merged.has()).startsWith(true, true);
        assertThat(merged.bits()[1]).isEqualTo(bits(3.0));
        assertThat(after.has()).startsWith(true, false);
    }

    @Test
    void anOlderPointChangesNothingAndKeepsTheCopy() {
        LastValue lv = new LastValue();
        offer(lv, 20, 1.0, 2.0);
        LastValue.Snapshot s = lv.snapshot();
        offer(lv, 10, 9.0, 9.0);
        assertThat(lv.snapshot()).isSameAs(s);
        assertThat(s.bits()[0]).isEqualTo(bits(1.0));
    }

    @Test
    void completenessChangesAndEvictionsGiveNewCopies() {
        LastValue lv = new LastValue();
        offer(lv, 10, 1.0, 2.0);
        LastValue.Snapshot complete = lv.snapshot();
        assertThat(complete.complete()).isTrue();

        lv.markIncomplete();
        LastValue.Snapshot incomplete = lv.snapshot();
        assertThat(incomplete).isNotSameAs(complete);
        assertThat(incomplete.complete()).isFalse();
        assertThat(complete.complete()).isTrue();

        long epoch = lv.epoch();
        lv.fill(30, new long[] {bits(5.0), 0}, new String[2], new boolean[] {true, false}, epoch);
        LastValue.Snapshot filled = lv.snapshot();
        assertThat(filled.complete()).isTrue();
        assertThat(filled.timestamp()).isEqualTo(30);
        assertThat(filled.bits()[0]).isEqualTo(bits(5.0));

        lv.evict();
        assertThat(lv.snapshot()).isNull();
        assertThat(filled.timestamp()).isEqualTo(30);
        offer(lv, 40, 6.0, -1);
        assertThat(lv.snapshot().timestamp()).isEqualTo(40);
        assertThat(lv.snapshot().complete()).isFalse(); // evicted: incomplete until a fill says otherwise
        lv.fillEmpty(lv.epoch());
        assertThat(lv.snapshot().complete()).isTrue();
    }
}
