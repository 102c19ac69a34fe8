package io.chronix.bench.engine;

import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.HostTags;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.generator.TsbsValueSets;
import io.chronix.engine.Chronix;
import io.chronix.engine.model.PointBatch;

import java.util.List;

/**
 * Writes generated ticks into an engine: one {@code PointBatch} per {@code ticksPerBatch} ticks
 * (all hosts of each tick), measurement {@code cpu}, the ten TSBS tags and ten fields (floats, or
 * integers when the data set is the integer variant). The builder is reused across batches.
 */
public final class EngineTickSink implements TickSink {

    private final Chronix engine;
    private final int ticksPerBatch;
    private final PointBatch.Builder builder = PointBatch.builder();
    private List<HostTags> hosts;
    private boolean integers;
    private int pending;
    private long rows;

    public EngineTickSink(Chronix engine, int ticksPerBatch) {
        if (ticksPerBatch < 1) {
            throw new IllegalArgumentException("ticksPerBatch must be at least 1");
        }
        this.engine = engine;
        this.ticksPerBatch = ticksPerBatch;
    }

    @Override
    public void open(Dataset dataset) {
        hosts = dataset.hosts();
        integers = dataset.config().integerFields();
    }

    @Override
    public void tick(long timeNanos, double[][] values) {
        appendTick(builder, hosts, integers, timeNanos, values);
        if (++pending == ticksPerBatch) {
            flushBatch();
        }
    }

    /** Appends one tick's rows, every host, to {@code b}. */
    public static void appendTick(PointBatch.Builder b, List<HostTags> hosts, boolean integers, long timeNanos, double[][] values) {
        List<String> keys = TsbsValueSets.TAG_KEYS;
        List<String> fields = TsbsValueSets.FIELDS;
        for (int h = 0; h < hosts.size(); h++) {
            HostTags t = hosts.get(h);
            b.beginPoint(TsbsValueSets.MEASUREMENT, timeNanos);
            b.tag(keys.get(0), t.hostname()).tag(keys.get(1), t.region()).tag(keys.get(2), t.datacenter())
                    .tag(keys.get(3), t.rack()).tag(keys.get(4), t.os()).tag(keys.get(5), t.arch()).tag(keys.get(6), t.team())
                    .tag(keys.get(7), t.service()).tag(keys.get(8), t.serviceVersion()).tag(keys.get(9), t.serviceEnvironment());
            for (int f = 0; f < fields.size(); f++) {
                if (integers) {
                    b.integerField(fields.get(f), (long) values[f][h]);
                } else {
                    b.floatField(fields.get(f), values[f][h]);
                }
            }
            b.endPoint();
        }
    }

    private void flushBatch() {
        if (pending == 0) {
            return;
        }
        PointBatch batch = builder.build();
        engine.write(batch);
        rows += batch.size();
        builder.reset();
        pending = 0;
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    @Override
    public void close() {
        flushBatch();
    }
}
