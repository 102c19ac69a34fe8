package io.chronix.engine.read;

import io.chronix.engine.summary.FieldAggregate;

import java.util.List;
import java.util.Map;

/**
 * Per series (canonical series order) the aggregate of the field, and how the engine got it.
 *
 * @param segmentsFromSummaries segments answered from their summaries, without decoding a block
 * @param segmentsRead segments whose blocks were read
 */
public record AggregateResult(List<Series> series, int segmentsFromSummaries, int segmentsRead) {

    public AggregateResult {
        series = List.copyOf(series);
    }

    /**
     * One series with values of the field in the range. {@code aggregate} is the engine's own
     * accumulator: count, first/last (time and value), min, max, {@code sum()} (compensated for
     * floats) and {@code exactSum()} (integers); do not change it.
     */
    public record Series(Map<String, String> tags, FieldAggregate aggregate) {
        public Series {
            tags = Map.copyOf(tags);
        }
    }
}
