package io.chronix.api.lifecycle;

import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.rollup.TimeRange;
import io.swagger.v3.oas.annotations.media.Schema;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

/**
 * A rollup as the API shows it: its definition as it was given (normalised) and its state.
 *
 * @param materialisedUntil every bucket starting before it is in the target (except the pending
 *     ranges); {@code null} before the first materialisation
 */
@Schema(name = "Rollup")
public record RollupView(
        @Schema(example = "cpu_1h") String name,
        @Schema(example = "cpu") String source,
        @Schema(example = "cpu_1h") String target,
        @Schema(example = "1h") String every,
        @Schema(example = "UTC") String timezone,
        @Schema(example = "2026-01-01T00:00", nullable = true, description = "local date-time in the time zone; null = the width's default") String origin,
        @Schema(example = "[\"avg\", \"min\", \"max\", \"count\"]") List<String> aggregates,
        @Schema(example = "2026-12-01T20:00:00Z", nullable = true, description = "RFC 3339; null before the first materialisation") String materialisedUntil,
        @Schema(description = "ranges to recompute at the next materialisation (late writes, deletes, refreshes), ascending") List<Range> pendingInvalid,
        @Schema(nullable = true, description = "why the latest materialisation of this rollup failed, if it did") String lastError) {

    /** A half-open range {@code [start, end)}, RFC 3339. */
    public record Range(@Schema(example = "2026-12-01T10:00:00Z") String start, @Schema(example = "2026-12-01T11:00:00Z") String end) {
    }

    public static RollupView of(RollupInfo info) {
        var c = info.config();
        return new RollupView(c.name(), c.source(), c.target(), c.bucket().every(), c.bucket().zone().getId(),
                c.bucket().origin().map(LocalDateTime::toString).orElse(null),
                c.aggregates().stream().map(Aggregate::wireName).toList(), watermark(info.materialisedUntil()),
                info.pendingInvalid().stream().map(RollupView::range).toList(), info.lastError().orElse(null));
    }

    /** A watermark as RFC 3339; {@code null} for "never materialised" ({@link Long#MIN_VALUE}). */
    public static String watermark(long nanos) {
        return nanos == Long.MIN_VALUE ? null : instant(nanos);
    }

    static String instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)).toString();
    }

    private static Range range(TimeRange r) {
        return new Range(instant(r.from()), instant(r.to()));
    }
}
