package io.chronix.engine.summary;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.SegmentColumns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the {@link SegmentSummary} of a segment from the {@link SegmentColumns} it is written from
 * — the rows as they go into the file, part after part in segment order (a series may continue
 * across parts). Whoever writes a segment (flush, compaction) feeds the same parts here and then
 * calls {@link #build} with the written segment's CRC.
 *
 * <p>Summarises FLOAT, INTEGER and UNSIGNED fields; booleans and strings are not summarised. Parts
 * must all carry the same numeric fields (the first part's); otherwise {@link #add} refuses with
 * {@link IllegalArgumentException} and the segment simply gets no summary.
 *
 * <p>Not thread-safe.
 */
public final class SummaryBuilder {

    private String measurement;
    private List<String> tagNames;
    private List<SegmentSummary.Field> fields;
    private final List<SegmentSummary.Series> done = new ArrayList<>();
    private String[] currentTags;
    private long rows;
    private long minTime;
    private long maxTime;
    private FieldAggregate[] current;

    /** Adds the rows of one part. */
    public SummaryBuilder add(SegmentColumns part) {
        List<SegmentColumns.FieldColumn> numeric = new ArrayList<>();
        for (SegmentColumns.FieldColumn f : part.fields()) {
            if (f.type() == FieldType.FLOAT || f.type() == FieldType.INTEGER || f.type() == FieldType.UNSIGNED) {
                numeric.add(f);
            }
        }
        List<String> tags = part.tags().stream().map(SegmentColumns.TagColumn::name).toList();
        List<SegmentSummary.Field> fs = numeric.stream().map(f -> new SegmentSummary.Field(f.name(), f.type())).toList();
        if (measurement == null) {
            measurement = part.measurement();
            tagNames = tags;
            fields = fs;
        } else if (!measurement.equals(part.measurement()) || !tagNames.equals(tags) || !fields.equals(fs)) {
            throw new IllegalArgumentException("part does not continue the segment's columns [measurement=" + part.measurement() + "]");
        }
        long[] time = part.time();
        String[] rowTags = new String[tags.size()];
        for (int i = 0; i < part.rowCount(); i++) {
            for (int t = 0; t < rowTags.length; t++) {
                rowTags[t] = part.tags().get(t).values()[i];
            }
            if (currentTags == null || !Arrays.equals(currentTags, rowTags)) {
                finishSeries();
                currentTags = rowTags.clone();
                current = new FieldAggregate[fields.size()];
                for (int f = 0; f < current.length; f++) {
                    current[f] = new FieldAggregate(fields.get(f).type());
                }
                minTime = Long.MAX_VALUE;
                maxTime = Long.MIN_VALUE;
            }
            long ts = time[i];
            rows++;
            minTime = Math.min(minTime, ts);
            maxTime = Math.max(maxTime, ts);
            for (int f = 0; f < current.length; f++) {
                SegmentColumns.FieldColumn c = numeric.get(f);
                if (c.isPresent(i)) {
                    current[f].add(ts, c.type() == FieldType.FLOAT ? Double.doubleToRawLongBits(c.doubles()[i]) : c.longs()[i]);
                }
            }
        }
        return this;
    }

    private void finishSeries() {
        if (currentTags != null) {
            done.add(new SegmentSummary.Series(Arrays.asList(currentTags), rows, minTime, maxTime, Arrays.asList(current)));
        }
        rows = 0;
    }

    /** The summary of everything added, for the segment whose whole-file CRC-32C is {@code segmentCrc}. */
    public SegmentSummary build(int segmentCrc) {
        if (measurement == null) {
            throw new IllegalStateException("no part added");
        }
        finishSeries();
        currentTags = null;
        return new SegmentSummary(segmentCrc, measurement, tagNames, fields, done);
    }
}
