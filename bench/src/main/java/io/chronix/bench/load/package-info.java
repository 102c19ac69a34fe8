/**
 * The HTTP load generator: {@link io.chronix.bench.load.LoadGenerator} posts a line-protocol file in
 * batches of whole lines over N keep-alive connections and reports rows/s, values/s, MB/s, request
 * latency percentiles and the client's own CPU time. Any non-2xx answer or I/O error stops the whole
 * run with a {@link io.chronix.bench.load.LoadFailedException}: a benchmark that silently drops
 * batches measures nothing.
 *
 * <p>Threading: one reader thread splits the input into batches and hands them to N worker threads
 * through a bounded queue; each worker owns one request at a time, so N is the connection count.
 */
package io.chronix.bench.load;
