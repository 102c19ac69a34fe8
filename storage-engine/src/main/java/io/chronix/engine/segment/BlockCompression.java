package io.chronix.engine.segment;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import io.chronix.engine.segment.encoding.EncodingException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Per-block LZ4 / Zstd (with or without a trained dictionary), with the seed's guards: a block to
 * compress must stay under {@link SegmentFormat#MAX_BLOCK_SIZE}; a block never decompresses to more
 * than {@link SegmentFormat#MAX_UNCOMPRESSED_SIZE}, and must decompress to exactly the length its
 * metadata states.
 */
final class BlockCompression {

    private static final LZ4Factory LZ4 = pickLz4();
    private static final LZ4Compressor LZ4_COMPRESSOR = LZ4.fastCompressor();
    private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = LZ4.safeDecompressor();

    private BlockCompression() {
    }

    private static LZ4Factory pickLz4() {
        try {
            return LZ4Factory.nativeInstance();
        } catch (Throwable nativeUnavailable) {
            return LZ4Factory.fastestJavaInstance();
        }
    }

    static int maxCompressedLength(int codec, int length) {
        return switch (codec) {
            case SegmentFormat.COMPRESSION_LZ4 -> LZ4_COMPRESSOR.maxCompressedLength(length);
            default -> (int) Math.min(Integer.MAX_VALUE - 64, Zstd.compressBound(length));
        };
    }

    /**
     * Compresses {@code src[0, length)} into {@code dst}; returns the compressed length.
     *
     * @throws IllegalArgumentException for a block beyond the 4 GiB guard
     */
    static int compress(int codec, byte[] src, int length, byte[] dst, int zstdLevel, ZstdDictCompress dict) {
        if (length > SegmentFormat.MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("block too large to compress [length=" + length + "]");
        }
        long n = switch (codec) {
            case SegmentFormat.COMPRESSION_LZ4 -> LZ4_COMPRESSOR.compress(src, 0, length, dst, 0, dst.length);
            case SegmentFormat.COMPRESSION_ZSTD -> Zstd.compressByteArray(dst, 0, dst.length, src, 0, length, zstdLevel);
            case SegmentFormat.COMPRESSION_ZSTD_DICT -> Zstd.compressFastDict(dst, 0, src, 0, length, dict);
            default -> throw new IllegalArgumentException("codec " + codec);
        };
        if (codec != SegmentFormat.COMPRESSION_LZ4 && Zstd.isError(n)) {
            throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(n));
        }
        return (int) n;
    }

    /**
     * Decompresses {@code src[off, off+length)} into {@code dst[0, expected)}.
     *
     * @throws EncodingException if the bytes do not decompress to exactly {@code expected} bytes
     */
    static void decompress(int codec, byte[] src, int off, int length, byte[] dst, int expected, ZstdDictDecompress dict) {
        if (expected < 0 || expected > SegmentFormat.MAX_UNCOMPRESSED_SIZE) {
            throw new EncodingException("uncompressed length beyond the 256 MiB guard [length=" + expected + "]");
        }
        long n;
        try {
            n = switch (codec) {
                case SegmentFormat.COMPRESSION_LZ4 -> LZ4_DECOMPRESSOR.decompress(src, off, length, dst, 0, expected);
                case SegmentFormat.COMPRESSION_ZSTD -> Zstd.decompressByteArray(dst, 0, expected, src, off, length);
                case SegmentFormat.COMPRESSION_ZSTD_DICT -> {
                    if (dict == null) {
                        throw new EncodingException("block needs a zstd dictionary the segment does not have");
                    }
                    yield Zstd.decompressFastDict(dst, 0, src, off, length, dict);
                }
                default -> throw new EncodingException("unknown compression " + codec);
            };
        } catch (EncodingException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new EncodingException("block does not decompress: " + e.getMessage());
        }
        if (codec != SegmentFormat.COMPRESSION_LZ4 && Zstd.isError(n)) {
            throw new EncodingException("block does not decompress: " + Zstd.getErrorName(n));
        }
        if (n != expected) {
            throw new EncodingException("block decompresses to " + n + " bytes, metadata says " + expected);
        }
    }
}
