package io.chronix.engine.segment;

import io.chronix.engine.segment.encoding.FloatEncoder;

/**
 * How a segment is written. The reader needs none of it: every choice is recorded in the file.
 *
 * @param rowGroupRows      rows per row group (the last of each appended part may be shorter)
 * @param compression       block codec: {@link SegmentFormat#COMPRESSION_NONE}, {@code _LZ4} or {@code _ZSTD};
 *                          a block whose encoding already reached {@value SegmentFormat#SKIP_COMPRESSION_RATIO}×
 *                          is stored uncompressed, as is one that compression would not shrink
 * @param zstdLevel         Zstd level (1..22)
 * @param zstdDictTraining  train a Zstd dictionary on the first row group's blocks and use it for the rest
 * @param floatPolicy       float encodings the writer may choose from
 */
public record SegmentWriterConfig(int rowGroupRows, int compression, int zstdLevel, boolean zstdDictTraining,
                                  FloatEncoder.Policy floatPolicy) {

    public SegmentWriterConfig {
        if (rowGroupRows < 1) {
            throw new IllegalArgumentException("rowGroupRows must be positive [rowGroupRows=" + rowGroupRows + "]");
        }
        if (compression != SegmentFormat.COMPRESSION_NONE && compression != SegmentFormat.COMPRESSION_LZ4
                && compression != SegmentFormat.COMPRESSION_ZSTD) {
            throw new IllegalArgumentException("compression must be none, lz4 or zstd [compression=" + compression + "]");
        }
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("zstdLevel must be 1..22 [zstdLevel=" + zstdLevel + "]");
        }
        if (zstdDictTraining && compression != SegmentFormat.COMPRESSION_ZSTD) {
            throw new IllegalArgumentException("zstdDictTraining needs zstd compression");
        }
        java.util.Objects.requireNonNull(floatPolicy, "floatPolicy");
    }

    /** 65,536-row groups, LZ4, automatic float encoding. */
    public static SegmentWriterConfig defaults() {
        return new SegmentWriterConfig(SegmentFormat.DEFAULT_ROW_GROUP_ROWS, SegmentFormat.COMPRESSION_LZ4, 3, false,
                FloatEncoder.Policy.AUTO);
    }

    public SegmentWriterConfig withRowGroupRows(int rows) {
        return new SegmentWriterConfig(rows, compression, zstdLevel, zstdDictTraining, floatPolicy);
    }

    public SegmentWriterConfig withCompression(int codec) {
        return new SegmentWriterConfig(rowGroupRows, codec, zstdLevel, zstdDictTraining && codec == SegmentFormat.COMPRESSION_ZSTD, floatPolicy);
    }

    public SegmentWriterConfig withZstd(int level, boolean dictTraining) {
        return new SegmentWriterConfig(rowGroupRows, SegmentFormat.COMPRESSION_ZSTD, level, dictTraining, floatPolicy);
    }

    public SegmentWriterConfig withFloatPolicy(FloatEncoder.Policy policy) {
        return new SegmentWriterConfig(rowGroupRows, compression, zstdLevel, zstdDictTraining, policy);
    }
}
