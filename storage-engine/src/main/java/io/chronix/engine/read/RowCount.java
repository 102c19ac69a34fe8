package io.chronix.engine.read;

/**
 * How many rows a scan would answer, and what counting them read ({@link ScanStatistics}): a
 * segment counted from the catalog is not read.
 */
public record RowCount(long rows, ScanStatistics statistics) {
}
