package io.chronix.engine.segment;

import io.chronix.engine.cache.DecodedBlock;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Copies between a decoded vector of a segment column and its {@link DecodedBlock} image. The
 * vectors are the ones {@link SegmentArrow} creates: fixed width 8-byte, bit, or {@code Utf8}.
 */
final class BlockImages {

    private BlockImages() {
    }

    /** The image of a freshly decoded vector (its buffers copied to the heap). */
    static DecodedBlock of(FieldVector v) {
        int n = v.getValueCount();
        int validityBytes = (n + 7) >>> 3;
        byte[] validity = null;
        if (v.getNullCount() > 0) {
            validity = new byte[validityBytes];
            v.getValidityBuffer().getBytes(0, validity);
        }
        return switch (v) {
            case VarCharVector s -> {
                byte[] offsets = new byte[(n + 1) * 4];
                s.getOffsetBuffer().getBytes(0, offsets);
                byte[] data = new byte[n == 0 ? 0 : s.getOffsetBuffer().getInt((long) n * 4)];
                s.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, offsets);
            }
            case BitVector bits -> {
                byte[] data = new byte[validityBytes];
                bits.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, null);
            }
            case BaseFixedWidthVector f -> {
                byte[] data = new byte[n * f.getTypeWidth()];
                f.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, null);
            }
            default -> throw new IllegalStateException("no block image for " + v.getClass().getSimpleName());
        };
    }

    /** Allocates {@code v} (in its own allocator) and copies the image into it. */
    static void fill(FieldVector v, DecodedBlock b) {
        int n = b.valueCount();
        switch (v) {
            case VarCharVector s -> {
                s.allocateNew(Math.max(1, b.data().length), n);
                s.getOffsetBuffer().setBytes(0, b.offsets());
                s.getDataBuffer().setBytes(0, b.data());
                validity(v, b);
                s.setLastSet(n - 1);
                s.setValueCount(n);
            }
            case BitVector bits -> {
                bits.allocateNew(n);
                bits.getDataBuffer().setBytes(0, b.data());
                validity(v, b);
                bits.setValueCount(n);
            }
            case BaseFixedWidthVector f -> {
                f.allocateNew(n);
                f.getDataBuffer().setBytes(0, b.data());
                validity(v, b);
                f.setValueCount(n);
            }
            default -> throw new IllegalStateException("no block image for " + v.getClass().getSimpleName());
        }
    }

    private static void validity(FieldVector v, DecodedBlock b) {
        if (b.validity() == null) {
            v.getValidityBuffer().setOne(0, (b.valueCount() + 7) >>> 3);
        } else {
            v.getValidityBuffer().setBytes(0, b.validity());
        }
    }
}
