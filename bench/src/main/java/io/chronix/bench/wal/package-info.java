/**
 * JMH benchmarks of the storage engine's write-ahead log: framing and CRC without I/O, durable
 * appends per fsync policy and writer count (group commit), and replay. Figures and the commands
 * that produced them: {@code docs/benchmarks.md}.
 */
package io.chronix.bench.wal;
