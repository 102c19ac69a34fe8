/**
 * Peer databases started beside Chronix for same-machine, same-data comparisons: QuestDB (its jar,
 * resolved by the {@code bench} Maven profile) and InfluxDB 1.x (the {@code influxd} binary of the
 * operating system's package). Each runs as a child process bound to 127.0.0.1 on a fresh data
 * directory, configured explicitly (telemetry and reporting off, durability stated), and is stopped
 * with the run. {@link io.chronix.bench.peer.PeerProcess} owns the process and its log.
 */
package io.chronix.bench.peer;
