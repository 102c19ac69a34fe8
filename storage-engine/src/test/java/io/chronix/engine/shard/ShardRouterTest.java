package io.chronix.engine.shard;

import io.chronix.engine.error.ShardOutOfRangeException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardRouterTest {

    static final long HOUR = 3_600_000_000_000L;
    final ShardRouter router = new ShardRouter(HOUR, 2, HOUR);

    @Test
    void shardIsTimestampOverDurationFlooredForNegatives() {
        assertThat(router.shardOf(0)).isZero();
        assertThat(router.shardOf(HOUR - 1)).isZero();
        assertThat(router.shardOf(HOUR)).isEqualTo(1);
        assertThat(router.shardOf(-1)).isEqualTo(-1);
        assertThat(router.shardStart(-1)).isEqualTo(-HOUR);
        assertThat(router.shardEnd(0)).isEqualTo(HOUR - 1);
    }

    @Test
    void edgesOfTheLongRangeSaturateInsteadOfWrapping() {
        long maxShard = router.shardOf(Long.MAX_VALUE);
        long minShard = router.shardOf(Long.MIN_VALUE);
        assertThat(router.shardEnd(maxShard)).isEqualTo(Long.MAX_VALUE);
        assertThat(router.shardStart(minShard)).isEqualTo(Long.MIN_VALUE);
        assertThat(router.shardStart(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThat(router.shardStart(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(router.shardEnd(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        // a window anchored at the very bottom and a clock at the very top
        router.observe(Long.MIN_VALUE + 1); // the tolerance behind it saturates
        ShardWindow w = router.window(Long.MAX_VALUE);
        assertThat(w.to()).isEqualTo(Long.MAX_VALUE);
        assertThat(w.from()).isEqualTo(Long.MIN_VALUE);
        assertThat(ShardRouter.saturatingAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(ShardRouter.saturatingSub(Long.MIN_VALUE, 1)).isEqualTo(Long.MIN_VALUE);
        assertThat(ShardRouter.saturatingSub(Long.MAX_VALUE, -1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void windowRunsFromTheToleratedShardBehindTheNewestToTheClockPlusTolerance() {
        long now = 100 * HOUR + 5;
        router.observe(50 * HOUR + 7);
        ShardWindow w = router.window(now);
        assertThat(w.from()).isEqualTo(48 * HOUR);
        assertThat(w.to()).isEqualTo(101 * HOUR + 5);
        router.check(48 * HOUR, w);
        router.check(101 * HOUR + 5, w);
        assertThatThrownBy(() -> router.check(48 * HOUR - 1, w))
                .isInstanceOfSatisfying(ShardOutOfRangeException.class, e -> {
                    assertThat(e.acceptedFrom()).isEqualTo(48 * HOUR);
                    assertThat(e.acceptedTo()).isEqualTo(101 * HOUR + 5);
                    assertThat(e.shard()).isEqualTo(47);
                });
        assertThatThrownBy(() -> router.check(101 * HOUR + 6, w)).isInstanceOf(ShardOutOfRangeException.class);
    }

    @Test
    void anEmptyRouterAcceptsAnyStartAndOnlyWhatIsHeldAnchorsTheWindow() {
        long now = 10 * HOUR;
        assertThat(router.window(now).from()).isEqualTo(Long.MIN_VALUE);
        assertThat(router.window(now).to()).isEqualTo(11 * HOUR);
        router.observe(9 * HOUR + 1);
        assertThat(router.window(now).from()).isEqualTo(7 * HOUR);
        // an older observation never moves the anchor back
        router.observe(HOUR);
        assertThat(router.window(now).from()).isEqualTo(7 * HOUR);
    }

    @Test
    void shardsBelowTheToleratedOneAreClosedAndObserveSaysWhenTheNewestMovesIntoALaterShard() {
        assertThat(router.openFrom()).as("nothing held: nothing closed").isEqualTo(Long.MIN_VALUE);
        assertThat(router.observe(9 * HOUR + 1)).as("the first timestamp closes nothing").isFalse();
        assertThat(router.openFrom()).isEqualTo(7);
        assertThat(router.isClosed(6)).isTrue();
        assertThat(router.isClosed(7)).isFalse();
        assertThat(router.observe(9 * HOUR + 2)).as("same shard").isFalse();
        assertThat(router.observe(5 * HOUR)).as("older").isFalse();
        assertThat(router.observe(10 * HOUR)).as("into the next shard").isTrue();
        assertThat(router.openFrom()).isEqualTo(8);
        assertThat(router.isClosed(7)).isTrue();
        router.observe(Long.MIN_VALUE + 1);
        assertThat(router.openFrom()).isEqualTo(8);
        ShardRouter bottom = new ShardRouter(HOUR, 2, HOUR);
        bottom.observe(Long.MIN_VALUE + 1); // the tolerance behind it saturates: nothing is below it
        assertThat(bottom.openFrom()).isEqualTo(bottom.shardOf(Long.MIN_VALUE) - 2);
        assertThat(bottom.isClosed(bottom.shardOf(Long.MIN_VALUE))).isFalse();
    }
}
