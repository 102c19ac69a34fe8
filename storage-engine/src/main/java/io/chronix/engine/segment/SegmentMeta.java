package io.chronix.engine.segment;

import io.chronix.engine.model.FieldType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a segment says about itself without decoding a value: header, columns with statistics, row
 * groups with their blocks, and the series table. Produced by the writer (for the catalog) and by
 * the reader at open. Immutable.
 *
 * @param fileSize bytes of the {@code .csx} file
 * @param crc      the whole-file CRC-32C stored in the footer
 */
public record SegmentMeta(Header header, String measurement, List<Column> columns, List<RowGroup> rowGroups,
                          List<Series> series, long fileSize, int crc) {

    public SegmentMeta {
        columns = sameClassCopy(columns);
        rowGroups = sameClassCopy(rowGroups);
        series = List.copyOf(series);
    }

    /**
     * An unmodifiable, null-free copy whose class does not depend on its size. {@code List.copyOf}
     * gives one class for one or two elements and another for more, and compiled callers of
     * {@code get} and {@code size} are specialised to the classes they have seen: the query warm-up's
     * segments, one row group each, produced code that TSBS's first segment with three row groups
     * threw away (a {@code class_check} deoptimisation and a recompilation inside the first queries).
     */
    static <T> List<T> sameClassCopy(List<T> list) {
        List<T> copy = new ArrayList<>(list.size());
        for (T t : list) {
            copy.add(Objects.requireNonNull(t, "element"));
        }
        return Collections.unmodifiableList(copy);
    }

    /** The 48-byte header's fields. */
    public record Header(int version, int flags, long minTime, long maxTime, long rowCount, int columnCount,
                         int seriesCount, long maxWalSequence) {
    }

    /** Where a column sits in the SQL view. */
    public enum Role { TIME, TAG, FIELD }

    /**
     * A column, in canonical order ({@code time}, tags by name, fields by name).
     *
     * @param type     the field type; {@code null} for time and tags
     * @param sortRank a tag's position in the row sort order (0 = sorted first); -1 for other columns
     */
    public record Column(String name, Role role, FieldType type, int sortRank, ColumnStats stats) {
    }

    /**
     * A stored column block.
     *
     * @param offset             file offset of the stored payload
     * @param storedLength       bytes on disk (compressed if {@code compression != NONE})
     * @param uncompressedLength bytes of the encoded payload before compression
     * @param validityOffset     file offset of the validity bitmap; meaningful only if {@code validityLength > 0}
     * @param validityLength     0 when the block has no nulls, else {@code ceil(valueCount / 8)}
     * @param blockCrc           CRC-32C of the stored payload
     */
    public record Block(long offset, int storedLength, int uncompressedLength, long validityOffset, int validityLength,
                        int valueCount, int nullCount, int encoding, int compression, int blockCrc) {
    }

    /** A row group: consecutive rows, one block per column (canonical order). */
    public record RowGroup(long firstRow, int rowCount, long minTime, long maxTime, List<Block> blocks) {
        public RowGroup {
            blocks = sameClassCopy(blocks);
        }

        /** True if any row may fall in {@code [from, to]} (both inclusive). */
        public boolean overlaps(long from, long to) {
            return minTime <= to && maxTime >= from;
        }
    }

    /** One series' stretch of rows (series are stored one after another, in sort order). */
    public record Series(long firstRow, int rowCount, long minTime, long maxTime) {
    }

    /** Index of the column called {@code name}, or -1. */
    public int columnIndex(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Tag columns in sort order. */
    public List<Column> tagsInSortOrder() {
        return columns.stream().filter(c -> c.role() == Role.TAG)
                .sorted(java.util.Comparator.comparingInt(Column::sortRank)).toList();
    }
}
