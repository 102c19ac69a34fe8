package io.chronix.engine.codec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EncodeBufferPoolTest {

    @Test
    void aBufferGivenBackIsLentAgainClearedAndStillGrown() {
        EncodeBufferPool pool = new EncodeBufferPool(16, 4, 1 << 20);
        EncodeBuffer b = pool.borrow();
        for (int i = 0; i < 10_000; i++) {
            b.writeByte(i);
        }
        int grown = b.capacity();
        assertThat(grown).isGreaterThanOrEqualTo(10_000);
        pool.giveBack(b);
        EncodeBuffer again = pool.borrow();
        assertThat(again).isSameAs(b);
        assertThat(again.length()).isZero();
        assertThat(again.capacity()).isEqualTo(grown);
    }

    @Test
    void twoBorrowersNeverShareABuffer() {
        EncodeBufferPool pool = new EncodeBufferPool(16, 4, 1 << 20);
        EncodeBuffer a = pool.borrow();
        EncodeBuffer b = pool.borrow();
        assertThat(a).isNotSameAs(b);
        pool.giveBack(a);
        assertThat(pool.borrow()).isSameAs(a);
        assertThat(pool.borrow()).isNotSameAs(a).isNotSameAs(b);
    }

    @Test
    void atMostKeepBuffersAreKeptAndNoneOverTheSizeLimit() {
        EncodeBufferPool pool = new EncodeBufferPool(16, 2, 4096);
        List<EncodeBuffer> lent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lent.add(pool.borrow());
        }
        lent.forEach(pool::giveBack); // the third is not kept
        EncodeBuffer big = new EncodeBuffer(8192);
        pool.giveBack(big); // over the size limit: not kept either
        List<EncodeBuffer> again = List.of(pool.borrow(), pool.borrow(), pool.borrow());
        assertThat(again.subList(0, 2)).containsExactlyInAnyOrder(lent.get(0), lent.get(1));
        assertThat(again.get(2)).isNotIn(lent).isNotSameAs(big);
    }

    @Test
    void negativeSizesAreRefused() {
        assertThatThrownBy(() -> new EncodeBufferPool(-1, 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialCapacity=-1");
    }
}
