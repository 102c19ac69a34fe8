package io.chronix.engine.segment;

import io.chronix.engine.model.FieldType;

import java.util.List;

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
        columns = List.copyOf(columns);
        rowGroups = List.copyOf(rowGroups);
        series = List.copyOf(series);
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
            blocks = List.copyOf(blocks);
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
