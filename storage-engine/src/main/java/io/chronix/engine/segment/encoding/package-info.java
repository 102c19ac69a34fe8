/**
 * The column-block encodings of {@code .csx} segments, byte by byte in {@code docs/format/segment.md}:
 * {@link io.chronix.engine.segment.encoding.DeltaOfDelta} (time), {@link
 * io.chronix.engine.segment.encoding.DeltaZigzag} (integers), {@link
 * io.chronix.engine.segment.encoding.Gorilla}, {@link io.chronix.engine.segment.encoding.Alp} and
 * {@link io.chronix.engine.segment.encoding.AlpRd} (floats, chosen per block by {@link
 * io.chronix.engine.segment.encoding.FloatEncoder}), {@link io.chronix.engine.segment.encoding.Dictionary}
 * (tags, strings) and {@link io.chronix.engine.segment.encoding.BooleanBits}; the integer ones share
 * {@link io.chronix.engine.segment.encoding.PatchedPacking}, whose whole 64-value runs decode through
 * the generated {@code BitUnpack}. Ids: {@link io.chronix.engine.segment.encoding.Encodings}.
 *
 * <p>Threading: decoders are static and stateless; encoders ({@code FloatEncoder}, {@code
 * AlpRd.Encoder}, {@code Dictionary.Encoder}) and {@code BlockBuffer} are reusable, one per thread.
 * Decoders validate every length, width, count, code and index and throw {@link
 * io.chronix.engine.segment.encoding.EncodingException} on impossible bytes (the reader turns it into
 * a {@code CorruptFileException}); they may read up to {@code Encodings.PAD} bytes past a block's end.
 * Nullness: no parameter or result is null.
 */
package io.chronix.engine.segment.encoding;
