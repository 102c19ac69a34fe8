package io.chronix.engine.read;

import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the engine's scan puts its batches: kept for a {@link ScanResult} ({@link #collecting}) or
 * handed to a {@link BatchSink} as they are read ({@link #streaming}). The scan numbers the parts it
 * reads (a settled segment each, then the row merge's output) so that kept batches come back in the
 * same order whichever threads read them.
 *
 * <p>Threading: {@link #open} and the takers it returns may be used on several threads at once,
 * each taker by one thread.
 */
public abstract sealed class ScanOutput {

    private final AtomicBoolean stopped = new AtomicBoolean();

    private ScanOutput() {
    }

    /** Keeps every batch, in part order, for {@link Collected#batches()}. */
    public static Collected collecting() {
        return new Collected();
    }

    /** Hands every batch to {@code sink}'s consumers and closes it after. */
    public static Streamed streaming(BatchSink sink) {
        return new Streamed(sink);
    }

    /** A taker for the calling thread. */
    public abstract Taker open();

    /** Whether a taker refused a batch: the scan reads nothing more. */
    public boolean stopped() {
        return stopped.get();
    }

    final void stop() {
        stopped.set(true);
    }

    /**
     * Gives {@code batches} of {@code part} to {@code taker} in order until it refuses one, and
     * closes those it was not given.
     *
     * @return false when the taker refused
     */
    public static boolean takeAll(Taker taker, int part, List<VectorSchemaRoot> batches) {
        int given = 0;
        try {
            while (given < batches.size()) {
                if (!taker.take(part, batches.get(given++))) {
                    return false;
                }
            }
            return true;
        } finally {
            batches.subList(given, batches.size()).forEach(VectorSchemaRoot::close);
        }
    }

    /** One thread's taker. */
    @FunctionalInterface
    public interface Taker {
        /**
         * Takes {@code batch} of part {@code part}, and with it the duty to close it.
         *
         * @return false when the scan is to stop
         */
        boolean take(int part, VectorSchemaRoot batch);
    }

    /** The batches kept, for a scan that answers all of them at its end. */
    public static final class Collected extends ScanOutput implements AutoCloseable {
        private record Part(int part, long arrival, VectorSchemaRoot batch) {
        }

        private final List<Part> kept = new ArrayList<>();

        @Override
        public Taker open() {
            return (part, batch) -> {
                synchronized (kept) {
                    kept.add(new Part(part, kept.size(), batch));
                }
                return true;
            };
        }

        /** The batches kept, by part and within a part in the order taken; the caller owns them now. */
        public List<VectorSchemaRoot> batches() {
            synchronized (kept) {
                List<Part> sorted = new ArrayList<>(kept);
                sorted.sort(Comparator.comparingInt(Part::part).thenComparingLong(Part::arrival));
                kept.clear();
                return sorted.stream().map(Part::batch).toList();
            }
        }

        /** Closes the batches not handed on (a scan that failed part way). */
        @Override
        public void close() {
            synchronized (kept) {
                kept.forEach(p -> p.batch().close());
                kept.clear();
            }
        }
    }

    /** Batches lent to a {@link BatchSink}'s consumers, counted on the way. */
    public static final class Streamed extends ScanOutput {
        private final BatchSink sink;
        private final AtomicLong rows = new AtomicLong();
        private final AtomicLong batches = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();

        private Streamed(BatchSink sink) {
            this.sink = sink;
        }

        @Override
        public Taker open() {
            BatchSink.Consumer consumer = sink.open();
            return (part, batch) -> {
                try {
                    if (stopped()) {
                        return false;
                    }
                    rows.addAndGet(batch.getRowCount());
                    batches.incrementAndGet();
                    bytes.addAndGet(ScanResult.bufferBytes(batch));
                    if (!consumer.accept(batch)) {
                        stop();
                        return false;
                    }
                    return true;
                } finally {
                    batch.close();
                }
            };
        }

        /**
         * Hands {@code result}'s batches over as one part on the calling thread (an answer built
         * whole, such as a rollup view), and says what was handed over. The result stays the
         * caller's to close; closing a batch again does nothing.
         */
        public StreamedScan feed(ScanResult result) {
            takeAll(open(), 0, result.batches());
            return summary(result.settledSegments(), result.statistics());
        }

        /** What was handed over, with the scan's own figures. */
        public StreamedScan summary(int settledSegments, ScanStatistics statistics) {
            return new StreamedScan(rows.get(), Math.toIntExact(batches.get()), bytes.get(), settledSegments, statistics,
                    !stopped());
        }
    }
}
