package io.chronix.engine.lifecycle;

import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The fluent form of a delete (seed 001: {@code .measurement()}, {@code .tag()}, {@code .range()},
 * {@code .build()}): {@code engine.delete().measurement("cpu").tag("host", "a").range(t0, t1).execute()}.
 * Without {@code range} every point of the matching series goes (up to its newest stored point,
 * never "forever": a later write survives). {@link #dryRun()} answers the counts and changes nothing.
 */
public final class DeleteBuilder {

    private final Function<DeleteRequest, DeleteResult> executor;
    private String measurement;
    private final TreeMap<String, String> tags = new TreeMap<>();
    private long start = Long.MIN_VALUE;
    private long end = Long.MAX_VALUE;
    private boolean dryRun;

    /** @param executor runs the built request (the engine's delete) */
    public DeleteBuilder(Function<DeleteRequest, DeleteResult> executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    public DeleteBuilder measurement(String m) {
        this.measurement = Objects.requireNonNull(m, "measurement");
        return this;
    }

    /** Matches series whose tag {@code key} is {@code value}; several calls must all hold. */
    public DeleteBuilder tag(String key, String value) {
        tags.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** Points in {@code [start, end]}, both inclusive, epoch ns. */
    public DeleteBuilder range(long start, long end) {
        this.start = start;
        this.end = end;
        return this;
    }

    public DeleteBuilder dryRun() {
        this.dryRun = true;
        return this;
    }

    /**
     * @throws IllegalArgumentException without a measurement, or with {@code start > end}
     */
    public DeleteRequest build() {
        if (measurement == null) {
            throw new IllegalArgumentException("delete needs a measurement");
        }
        return new DeleteRequest(measurement, tags, start, end, dryRun, false);
    }

    /** Builds and runs the delete; returns once it is durable (or, dry, once counted). */
    public DeleteResult execute() {
        return executor.apply(build());
    }
}
