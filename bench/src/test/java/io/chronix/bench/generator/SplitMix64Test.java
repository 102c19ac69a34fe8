package io.chronix.bench.generator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SplitMix64Test {
    /** The reference outputs of SplitMix64 for seed 0 (as in the paper's and Vigna's reference code). */
    @Test
    void matchesTheReferenceSequence() {
        SplitMix64 r = new SplitMix64(0);
        assertThat(r.nextLong()).isEqualTo(0xe220a8397b1dcdafL);
        assertThat(r.nextLong()).isEqualTo(0x6e789e6aa1b965f4L);
        assertThat(r.nextLong()).isEqualTo(0x06c45d188009454fL);
    }

    @Test
    void gaussianHasUnitVarianceAndBoundedIntsStayInRange() {
        SplitMix64 r = new SplitMix64(42);
        double sum = 0;
        double squares = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            double g = r.nextGaussian();
            sum += g;
            squares += g * g;
            assertThat(r.nextInt(7)).isBetween(0, 6);
        }
        assertThat(sum / n).isBetween(-0.02, 0.02);
        assertThat(squares / n).isBetween(0.98, 1.02);
    }
}
