package io.chronix.bench.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;

/**
 * Posts line protocol to a write endpoint; see the package description. The run is all-or-nothing:
 * the first failure stops every worker and {@link #run} throws it, naming the batch, the status and
 * the start of the server's answer.
 */
public final class LoadGenerator {
    private static final Batch END = new Batch(-1, new byte[0], 0, 0);

    private final LoadConfig config;
    private final HttpClient client;

    public LoadGenerator(LoadConfig config) {
        this.config = config;
        // HTTP/1.1 explicitly: h2c upgrade attempts would change what is measured, and the pool keeps
        // one connection per concurrent request alive between batches.
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    public LoadReport run(InputStream input) throws IOException, InterruptedException {
        BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(config.connections() * 4);
        AtomicReference<LoadFailedException> failure = new AtomicReference<>();
        AtomicLong rows = new AtomicLong();
        AtomicLong values = new AtomicLong();
        AtomicLong bodyBytes = new AtomicLong();
        AtomicLong wireBytes = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        for (int w = 0; w < config.connections(); w++) {
            long[][] mine = {new long[1024]};
            int[] count = {0};
            Thread t = Thread.ofPlatform().name("load-" + w).start(() -> {
                try {
                    while (failure.get() == null) {
                        Batch batch = queue.take();
                        if (batch == END) {
                            break;
                        }
                        long latency = post(batch, wireBytes);
                        if (count[0] == mine[0].length) {
                            mine[0] = Arrays.copyOf(mine[0], mine[0].length * 2);
                        }
                        mine[0][count[0]++] = latency;
                        rows.addAndGet(batch.lines());
                        values.addAndGet(batch.values());
                        bodyBytes.addAndGet(batch.body().length);
                    }
                } catch (LoadFailedException e) {
                    failure.compareAndSet(null, e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    synchronized (latencies) {
                        latencies.add(Arrays.copyOf(mine[0], count[0]));
                    }
                }
            });
            workers.add(t);
        }
        LineBatcher batcher = new LineBatcher(input, config.batchLines());
        try {
            for (Batch b = batcher.next(); b != null && failure.get() == null; b = batcher.next()) {
                if (b.lines() == 0) {
                    continue;
                }
                while (!queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
                    if (failure.get() != null) {
                        break;
                    }
                }
            }
        } finally {
            for (int i = 0; i < workers.size(); i++) {
                while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
                    if (failure.get() != null) {
                        queue.clear();
                    }
                }
            }
            for (Thread t : workers) {
                t.join();
            }
        }
        long wall = System.nanoTime() - started;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        if (failure.get() != null) {
            throw failure.get();
        }
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        long requests = all.length;
        return new LoadReport(rows.get(), values.get(), bodyBytes.get(), wireBytes.get(), requests, wall,
                percentile(all, 0.50), percentile(all, 0.99), all.length == 0 ? 0 : all[all.length - 1], cpu);
    }

    /** Nearest-rank percentile of sorted values; 0 for none. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private long post(Batch batch, AtomicLong wireBytes) throws InterruptedException {
        byte[] body = config.gzip() ? gzip(batch.body()) : batch.body();
        HttpRequest.Builder request = HttpRequest.newBuilder(config.url())
                .timeout(config.requestTimeout())
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        config.headers().forEach(request::header);
        if (config.gzip()) {
            request.header("Content-Encoding", "gzip");
        }
        long t0 = System.nanoTime();
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new LoadFailedException("batch " + batch.index() + " to " + config.url() + " failed: " + e, -1, e);
        }
        long latency = System.nanoTime() - t0;
        wireBytes.addAndGet(body.length);
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            String answer = response.body();
            if (answer.length() > 1000) {
                answer = answer.substring(0, 1000) + "...";
            }
            throw new LoadFailedException("batch " + batch.index() + " (" + batch.lines() + " lines) to "
                    + config.url() + " answered " + status + ": " + answer, status, null);
        }
        return latency;
    }

    private static byte[] gzip(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
            gz.write(body);
        } catch (IOException e) {
            throw new IllegalStateException("gzip to memory cannot fail", e);
        }
        return out.toByteArray();
    }
}
