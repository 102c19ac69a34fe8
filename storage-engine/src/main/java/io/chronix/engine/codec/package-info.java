/**
 * Payload codec v1 of the WAL: {@link io.chronix.engine.codec.WalCodec} turns
 * {@link io.chronix.engine.codec.WalEntry} values (point batches, schema, tombstones) into record
 * payloads and back. The WAL itself treats payloads as opaque bytes; this package gives them meaning.
 *
 * <p>Threading: the codec is stateless; buffers are single-threaded. Nullness: non-null unless
 * documented otherwise.
 */
package io.chronix.engine.codec;
