package io.chronix.engine.wal;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The LZ4 instances the WAL uses. The native one is asked for by name because {@code
 * fastestInstance()} settles on the pure-Java path inside a repackaged jar; where the native library
 * cannot load, the pure-Java one produces the same bytes.
 */
final class Lz4 {

    static final LZ4Factory FACTORY = pick();
    static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

    private Lz4() {
    }

    private static LZ4Factory pick() {
        try {
            return LZ4Factory.nativeInstance();
        } catch (Throwable nativeUnavailable) {
            return LZ4Factory.fastestJavaInstance();
        }
    }
}
