package io.chronix.api.maintenance;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.error.Problems;
import io.chronix.api.lifecycle.RollupView;
import io.chronix.api.security.TenantAccess;
import io.chronix.engine.Chronix;
import io.chronix.engine.compaction.CompactionResult;
import io.chronix.engine.error.CompactionFailedException;
import io.chronix.engine.error.FlushFailedException;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code POST /api/v1/namespaces/{ns}/flush} and {@code POST /api/v1/namespaces/{ns}/compact}: run
 * the step now and answer what it did. Scope {@code admin}; a namespace of another tenant is 404,
 * like one that does not exist.
 */
@RestController
class MaintenanceController {

    private final TenantAccess access;
    private final EngineRegistry engines;

    MaintenanceController(TenantAccess access, EngineRegistry engines) {
        this.access = access;
        this.engines = engines;
    }

    /** What a flush did: points that left the memtables for segments, and the live segment count after. */
    record FlushAnswer(long pointsFlushed, int segmentsWritten, int segments, long durationMs) {
    }

    /** What a compaction did (the engine's {@link CompactionResult}), and where each rollup stands after the materialisation that follows it. */
    record CompactAnswer(int groups, int segmentsIn, int segmentsOut, long rowsIn, long rowsOut, long bytesIn, long bytesOut,
                         long durationMs, List<RollupAfter> rollups) {
    }

    /**
     * One rollup after the pass: its watermark before and after (RFC 3339, {@code null}: never
     * materialised), the repairs still pending and the pass's failure, if any.
     */
    record RollupAfter(String name, String materialisedUntil, String previouslyMaterialisedUntil, int pendingInvalid, String lastError) {
    }

    @PostMapping("/api/v1/namespaces/{ns}/flush")
    @Operation(summary = "Flush the namespace's memtables to segments now", description = """
            Writes every point held in memory to segments and truncates the WAL; answers how many points were flushed, \
            how many segments were written and how many the namespace holds now. 503 if the flush failed (nothing is \
            lost: the memtables and the WAL are kept and the engine retries).""")
    FlushAnswer flush(@PathVariable("ns") String namespace, Authentication auth) {
        return withEngine(auth, namespace, engine -> {
            long start = System.nanoTime();
            long points = engine.memtablePoints();
            int segments = engine.segmentCount();
            engine.flush();
            int after = engine.segmentCount();
            return new FlushAnswer(Math.max(0, points - engine.memtablePoints()), Math.max(0, after - segments), after,
                    (System.nanoTime() - start) / 1_000_000);
        });
    }

    @PostMapping("/api/v1/namespaces/{ns}/compact")
    @Operation(summary = "Compact the namespace now", description = """
            Flushes, then merges every time shard's segments of each measurement into one (newest write wins field by \
            field, NULLs kept); answers the groups merged, segments and rows in and out, bytes in and out and the time \
            taken, then each rollup's watermark before and after the materialisation that follows every compaction, its \
            pending repairs and its failure if it failed. 503 if a group could not be merged (its segments stay as they were).""")
    CompactAnswer compact(@PathVariable("ns") String namespace, Authentication auth) {
        return withEngine(auth, namespace, engine -> {
            Map<String, Long> before = new HashMap<>();
            engine.rollups().forEach(i -> before.put(i.name(), i.materialisedUntil()));
            CompactionResult r = engine.compact(); // materialises the rollups after the merge
            List<RollupAfter> rollups = engine.rollups().stream().map(i -> new RollupAfter(i.name(),
                    RollupView.watermark(i.materialisedUntil()), RollupView.watermark(before.getOrDefault(i.name(), Long.MIN_VALUE)),
                    i.pendingInvalid().size(), i.lastError().orElse(null))).toList();
            return new CompactAnswer(r.groups(), r.segmentsIn(), r.segmentsOut(), r.rowsIn(), r.rowsOut(), r.bytesIn(), r.bytesOut(),
                    r.duration().toMillis(), rollups);
        });
    }

    private <T> T withEngine(Authentication auth, String name, Function<Chronix, T> work) {
        return engines.applyLive(access.namespace(auth, name, Scope.Action.ADMIN), work);
    }

    @ExceptionHandler({FlushFailedException.class, CompactionFailedException.class})
    ProblemDetail failed(RuntimeException e) {
        boolean flush = e instanceof FlushFailedException;
        return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, flush ? "flush-failed" : "compaction-failed",
                flush ? "Flush failed" : "Compaction failed",
                (flush ? "The flush" : "The compaction") + " could not complete; nothing was lost and the data is as before. "
                        + "Retry later; the engine also retries by itself.");
    }
}
