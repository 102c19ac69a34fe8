package io.chronix.api.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeapSettingsCheckTest {

    private static final long GIB = 1L << 30;

    @Test
    void aFixedPreTouchedHeapIsNotWarnedAbout() {
        assertThat(HeapSettingsCheck.advice(4 * GIB, 4 * GIB, true)).isEmpty();
    }

    @Test
    void aGrowingHeapIsNamedWithItsSizesAndTheFlagsToSet() {
        assertThat(HeapSettingsCheck.advice(384L << 20, 6 * GIB, true)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("not fixed [initial=384 MiB, max=6144 MiB]")
                .doesNotContain("AlwaysPreTouch=false")
                .contains("-Xms equal to -Xmx", "-XX:+AlwaysPreTouch"));
    }

    @Test
    void aFixedHeapThatIsNotPreTouchedIsNamedAsSuch() {
        assertThat(HeapSettingsCheck.advice(4 * GIB, 4 * GIB, false)).hasValueSatisfying(warning -> assertThat(warning)
                .startsWith("the JVM's heap is not pre-touched [AlwaysPreTouch=false]")
                .doesNotContain("not fixed"));
    }

    @Test
    void bothAreNamedWhenBothAreMissing() {
        assertThat(HeapSettingsCheck.advice(GIB, 2 * GIB, false)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("not fixed [initial=1024 MiB, max=2048 MiB] and not pre-touched"));
    }

    @Test
    void anUndefinedMaximumIsNeverTakenForAFixedHeap() {
        assertThat(HeapSettingsCheck.advice(-1, -1, true)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("initial=undefined, max=undefined"));
    }
}
