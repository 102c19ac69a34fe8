/**
 * Rollups against the real stack (the service jar as a child process, PostgreSQL): defined over
 * HTTP, materialised by compaction, read back through SQL and checked against aggregates the test
 * computes itself, repaired after a backfill below the watermark, kept across a restart, removed.
 */
package io.chronix.it.rollup;
