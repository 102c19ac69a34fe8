package io.chronix.bench.generator;

/**
 * Receives the generated data one tick at a time, columnar: every host's value of every field at
 * one timestamp. This is the seam for feeding the engine directly (no line protocol, no HTTP); an
 * engine adapter implements it once the engine's point-batch write API exists.
 *
 * <p>Contract: {@link #open} once, then {@link #tick} once per tick in increasing time order, then
 * {@link #close}. The {@code values} arrays belong to the generator and are overwritten by the
 * next tick: copy what must outlive the call.
 */
public interface TickSink extends AutoCloseable {

    /** Called once before the first tick. */
    default void open(Dataset dataset) {
    }

    /**
     * One tick.
     *
     * @param timeNanos epoch nanoseconds of every row in this tick
     * @param values    {@code values[field][host]}; field order is {@link TsbsValueSets#FIELDS}, host
     *                  order is {@link Dataset#hosts()}. With integer fields the values are whole numbers.
     */
    void tick(long timeNanos, double[][] values);

    /** Called once after the last tick; flushes whatever the sink buffers. */
    @Override
    default void close() {
    }
}
