package io.chronix.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The tag columns of the engine's last newest-rows answer ({@link LatestBatch}) as the images of
 * their Arrow buffers, kept for the next answer over the same series in the same order. A series'
 * tags never change, and each row carries its series' own UTF-8 tag array ({@link
 * io.chronix.engine.memtable.SeriesRef#alignedTags}, never modified, a new one when the
 * measurement's tag columns change): so when every row holds the same array as the kept answer's
 * row at its place, the tag columns are the kept ones, byte for byte, whatever the fields now hold.
 * That is the usual case of a dashboard's "last value of every host", asked again and again while
 * points arrive: instead of gathering hundreds of small arrays per tag column, the answer copies
 * one image per buffer.
 *
 * <p>One answer is kept (its rows' arrays and the images built for it); an answer over other
 * series replaces it. Threading: thread-safe; two answers racing build the same images, and either
 * is kept.
 */
final class TagImages {

    /** One tag column's buffers: values' bytes, offsets (n + 1 little-endian ints), validity bits. */
    record Image(byte[] data, byte[] offsets, byte[] validity) {

        /** The buffers of a string column of these values' UTF-8 ({@code null}: NULL). */
        static Image of(byte[][] values) {
            int n = values.length;
            byte[] offsets = new byte[4 * (n + 1)];
            byte[] validity = new byte[(n + 7) / 8];
            int total = 0;
            for (int r = 0; r < n; r++) {
                if (values[r] != null) {
                    total = Math.addExact(total, values[r].length);
                    validity[r >> 3] |= (byte) (1 << (r & 7));
                }
                INT_LE.set(offsets, 4 * (r + 1), total);
            }
            byte[] data = new byte[total];
            for (int r = 0, at = 0; r < n; r++) {
                if (values[r] != null) {
                    System.arraycopy(values[r], 0, data, at, values[r].length);
                    at += values[r].length;
                }
            }
            return new Image(data, offsets, validity);
        }
    }

    /** The rows' tag arrays (identities) and the images built so far for them, by tag index. */
    record Rows(byte[][][] tagArrays, Image[] images) {

        /** Tag {@code tag}'s column for these rows, built the first time it is asked for. */
        Image image(int tag) {
            Image im = images[tag];
            if (im == null) {
                im = build(tagArrays, tag);
                images[tag] = im; // a record with final fields: safe to publish through a race
            }
            return im;
        }
    }

    private volatile Rows last;

    /** The kept images if {@code rows} are the kept answer's series in its order, else a new set for them (and kept). */
    Rows forRows(List<LastPointReader.Latest> rows, int tagCount) {
        Rows kept = last;
        if (kept != null && kept.images().length == tagCount && sameSeries(kept.tagArrays(), rows)) {
            return kept;
        }
        byte[][][] arrays = new byte[rows.size()][][];
        for (int r = 0; r < arrays.length; r++) {
            arrays[r] = rows.get(r).tagsUtf8();
        }
        Rows fresh = new Rows(arrays, new Image[tagCount]);
        last = fresh;
        return fresh;
    }

    private static boolean sameSeries(byte[][][] kept, List<LastPointReader.Latest> rows) {
        if (kept.length != rows.size()) {
            return false;
        }
        for (int r = 0; r < kept.length; r++) {
            if (kept[r] != rows.get(r).tagsUtf8()) {
                return false;
            }
        }
        return true;
    }

    private static Image build(byte[][][] rows, int tag) {
        byte[][] column = new byte[rows.length][];
        for (int r = 0; r < column.length; r++) {
            column[r] = rows[r][tag];
        }
        return Image.of(column);
    }

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
}
