/**
 * The stall test: {@link io.chronix.bench.stall.StallCommand} times {@code /ping}, liveness and
 * another tenant's small write while one tenant's heavy queries run (issue 43), against the service
 * jar, and prints p50/p99/max per probe, idle and loaded.
 *
 * <p>Threading: the probes run one at a time on the calling thread; each heavy query has a platform
 * thread of its own that blocks on its answer.
 */
package io.chronix.bench.stall;
